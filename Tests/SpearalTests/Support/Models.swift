import Foundation
import Spearal

/// The reference sample's Person, as a Swift struct declared in non-alphabetical order.
struct PersonStruct: Codable, Equatable, SpearalClassNamed {
    static let spearalClassName = DescribedValues.personClass
    var id: Int
    var name: String?
    var description: String?
    var imageUrl: String?
}

/// The Person as a class, so instances can be shared and form cycles.
final class PersonObject: Codable, SpearalClassNamed {
    static let spearalClassName = DescribedValues.personClass
    var id: Int
    var name: String?
    var description: String?
    var imageUrl: String?
    var worstEnemy: PersonObject?

    init(id: Int, name: String?, description: String?, imageUrl: String? = nil) {
        self.id = id
        self.name = name
        self.description = description
        self.imageUrl = imageUrl
    }
}

/// A partial Person whose fields know whether they are defined.
struct PersonUpdate: Codable, Equatable, SpearalClassNamed, SpearalPartialObject {
    static let spearalClassName = DescribedValues.personClass
    var id: Int
    var name: SpearalField<String?> = .undefined
    var description: SpearalField<String?> = .undefined
    var imageUrl: SpearalField<String?> = .undefined
}

/// An older client's Person that never heard of `worstEnemy` nor `imageUrl`.
struct OutdatedPerson: Codable, Equatable, SpearalClassNamed {
    static let spearalClassName = DescribedValues.personClass
    var id: Int
    var name: String?
}

/// A Swift model whose `description_` is `description` on the wire (set through aliases).
struct Person: Codable, Equatable {
    var id: Int
    var name: String?
    var description_: String?
    var imageUrl: String?
}

enum Salutation: String, SpearalEnumeration, SpearalClassNamed {
    static let spearalClassName = "spearalref.Salutation"
    case mr = "MR"
    case ms = "MS"
}

/// Every Foundation type the bridge maps to a dedicated format type.
struct Everything: Codable, Equatable {
    var flag: Bool
    var count: Int
    var ratio: Double
    var small: Float
    var huge: UInt64
    var text: String
    var missing: String?
    var when: Date
    var blob: Data
    var amount: Decimal
    var numbers: [Int]
    var scores: [String: Int]
    var salutation: Salutation
    var link: URL
    var nested: [PersonStruct]
}

/// The Person of the basic sample (no `worstEnemy`) as a class, for shared-instance tests.
final class PlainPersonObject: Codable, SpearalClassNamed {
    static let spearalClassName = DescribedValues.personClass
    var id: Int
    var name: String?
    var description: String?
    var imageUrl: String?

    init(id: Int, name: String?, description: String?) {
        self.id = id
        self.name = name
        self.description = description
    }
}
