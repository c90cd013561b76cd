import Foundation
import Spearal
import Testing

/// `SpearalEncoder.encode(_:)` writes `Encodable` values straight to bytes; these tests hold it
/// to the bytes of the value model (`makeValue(_:)` written by `encodeValue(_:)`), which the
/// reference vectors pin to spearal-java.
@Suite("Direct-write encoding gives the value model's bytes")
struct DirectEncodingTests {
    /// Expects `encode(value)` and `encodeValue(makeValue(value))` to give the same bytes.
    static func expectSameBytes<T: Encodable>(_ value: T, encoder: SpearalEncoder = SpearalEncoder(),
                                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = try encoder.encode(value)
        let model = try encoder.makeValue(value)
        defer { model.dismantle() }
        let throughModel = try encoder.encodeValue(model)
        #expect(Hex.string(direct) == Hex.string(throughModel), sourceLocation: sourceLocation)
    }

    @Test("nested structs, optionals, arrays, dictionaries and Foundation types")
    func nestedValues() throws {
        let everything = try CodableTests.everything()
        try Self.expectSameBytes(everything)
        try Self.expectSameBytes([everything, everything])
        try Self.expectSameBytes(Catalog.sample())
    }

    @Test("top-level scalars, optionals, arrays and dictionaries")
    func topLevelValues() throws {
        try Self.expectSameBytes("spearal")
        try Self.expectSameBytes(-42)
        try Self.expectSameBytes(2.5)
        try Self.expectSameBytes(Date(timeIntervalSince1970: 1_416_479_415.123_456))
        try Self.expectSameBytes(String?.none)
        try Self.expectSameBytes(["b": 2, "a": 1, "c": 3])
        try Self.expectSameBytes([3: "c", 1: "a", 2: "b"])
        try Self.expectSameBytes([[1, 2], [], [3]])
        try Self.expectSameBytes([String]())
        try Self.expectSameBytes(Data([1, 2, 3]))
        try Self.expectSameBytes(Salutation.mr)
    }

    @Test("dictionary keys that encode as strings through their own encode(to:) are sorted alike")
    func dictionaryWithEncodableKeys() throws {
        let byColor: [Color: Int] = [.red: 1, .green: 2, .blue: 3, .yellow: 4]
        try Self.expectSameBytes(byColor)
        try Self.expectSameBytes(["x": byColor])
    }

    @Test("repeated strings and beans of one shape become references")
    func repeatedStringsAndShapes() throws {
        let people = (0..<20).map { index in
            PersonStruct(id: index, name: index % 3 == 0 ? "Naruto" : "Sasuke", description: nil,
                         imageUrl: index % 2 == 0 ? "Naruto" : nil)
        }
        try Self.expectSameBytes(people)
    }

    @Test("a large message grows the output buffer and the string table, and decodes back")
    func largeMessage() throws {
        let texts = (0..<3000).map { index in
            index % 3 == 0 ? "text \(index % 1000)" : String(repeating: "paragraph \(index) ", count: 1 + index % 40)
        }
        let people = texts.indices.map { PersonStruct(id: $0, name: texts[$0], description: texts[($0 * 7) % texts.count], imageUrl: nil) }
        try Self.expectSameBytes(texts)
        try Self.expectSameBytes(people)

        let decoded = try SpearalDecoder().decode([PersonStruct].self, from: try SpearalEncoder().encode(people))

        #expect(decoded == people)
    }

    @Test("a class instance shared in a list, and cycles between class instances")
    func sharedInstancesAndCycles() throws {
        let naruto = PlainPersonObject(id: 1, name: "Uzumaki Naruto", description: "Konoha")
        try Self.expectSameBytes([naruto, naruto])
        try Self.expectSameBytes(Team(leader: naruto, members: [naruto, PlainPersonObject(id: 2, name: "Sakura", description: nil)]))

        let enemies = ObjectGraphTests.enemies()
        defer { enemies.worstEnemy = nil }
        try Self.expectSameBytes(enemies)
        try Self.expectSameBytes([enemies, enemies.worstEnemy, enemies])
        let loner = PersonObject(id: 7, name: "Gaara", description: nil)
        loner.worstEnemy = loner
        defer { loner.worstEnemy = nil }
        try Self.expectSameBytes(loner)
    }

    @Test("filtered classes keep the listed and unfilterable properties only")
    func filteredClasses() throws {
        var filter = SpearalPropertyFilter()
        filter.keep(["name"], of: DescribedValues.personClass)
        filter.markUnfilterable(["id"], of: DescribedValues.personClass)
        filter.keep(["title"], of: "Catalog")
        let encoder = SpearalEncoder(propertyFilter: filter)
        let naruto = PersonStruct(id: 1, name: "Uzumaki Naruto", description: "Konoha", imageUrl: nil)
        try Self.expectSameBytes(naruto, encoder: encoder)
        try Self.expectSameBytes([naruto, naruto], encoder: encoder)
        try Self.expectSameBytes(Catalog.sample(), encoder: encoder)
        let enemies = ObjectGraphTests.enemies()
        defer { enemies.worstEnemy = nil }
        try Self.expectSameBytes(enemies, encoder: encoder)
    }

    @Test("undefined fields leave partial objects, in lists of varying shapes")
    func partialObjects() throws {
        let updates = [
            PersonUpdate(id: 1, name: .defined("Naruto")),
            PersonUpdate(id: 2, imageUrl: .defined(nil)),
            PersonUpdate(id: 3, name: .defined("Naruto")),
            PersonUpdate(id: 4, name: .defined(nil), description: .defined("Konoha"), imageUrl: .defined("x.png")),
        ]
        try Self.expectSameBytes(updates)
        try Self.expectSameBytes([SpearalField<Int>.undefined, .defined(3)])
    }

    @Test("class and property aliases")
    func aliases() throws {
        let encoder = SpearalEncoder(aliasStrategy: AliasStrategyTests.strategy())
        try Self.expectSameBytes([Person(id: 1, name: "Naruto", description_: "Konoha", imageUrl: nil)], encoder: encoder)
    }

    @Test("custom encode(to:): nested containers, super encoders, repeated keys, single values")
    func customEncodings() throws {
        try Self.expectSameBytes(Containers())
        try Self.expectSameBytes(Dog())
        try Self.expectSameBytes([Dog(), Dog()])
        try Self.expectSameBytes(RepeatedKey())
        try Self.expectSameBytes(NoContainer())
        let token = Token(text: "t")
        try Self.expectSameBytes([token, token])
    }

    @Test("a class listing itself gets an empty bean in its place, as before the direct path")
    func classListingItself() throws {
        let loop = Loop()

        let data = try SpearalEncoder().encode([loop, loop])

        // The bytes of the value-model encoder this path replaced: the list the instance encodes
        // to is sent in full each time (it is no bean, so it has no identity to refer to), and
        // the empty bean standing for the instance is object #2, referenced afterwards.
        #expect(Hex.string(data) == "80028002c0054c6f6f7023c8028002c802c802")
    }

    @Test("a value the format cannot carry throws the value model's error, at the same path")
    func invalidValueThrowsLikeTheValueModel() throws {
        // (A NaN Decimal rather than a NaN Date: Foundation traps when describing the latter.)
        let value = ["amounts": [Decimal.nan]]
        let direct = #expect(throws: EncodingError.self) { try SpearalEncoder().encode(value) }
        let model = #expect(throws: EncodingError.self) { try SpearalEncoder().makeValue(value) }
        guard case .invalidValue(_, let directContext)? = direct, case .invalidValue(_, let modelContext)? = model else {
            Issue.record("expected invalidValue errors, got \(String(describing: direct)) and \(String(describing: model))")
            return
        }
        #expect(directContext.codingPath.map(\.stringValue) == modelContext.codingPath.map(\.stringValue))
    }

    @Test("an error thrown by a nested encode(to:) reaches the caller")
    func nestedErrorsPropagate() throws {
        #expect(throws: Refusal.self) { try SpearalEncoder().encode(["a": [Refusing()]]) }
    }
}

// MARK: - Models with hand-written encodings

private struct Catalog: Encodable {
    var title: String
    var tags: [String]
    var ratings: [String: Double]
    var counts: [Int: UInt64]
    var sections: [[PersonStruct]]
    var published: Date?
    var revised: Date
    var checksum: Data
    var price: Decimal
    var small: Float
    var flags: [Bool?]
    var home: URL?

    static func sample() throws -> Catalog {
        let naruto = PersonStruct(id: 1, name: "Uzumaki Naruto", description: "Konoha", imageUrl: nil)
        return Catalog(title: "Konoha", tags: ["ninja", "Konoha", "ninja"], ratings: ["b": 2.5, "a": 0.1, "c": -1],
                       counts: [2: .max, 1: 7], sections: [[naruto], [], [naruto, naruto]], published: nil,
                       revised: Date(timeIntervalSince1970: 1_416_479_415.123), checksum: Data([0, 255]),
                       price: try #require(Decimal(string: "19.99")), small: 0.1, flags: [true, nil, false],
                       home: URL(string: "https://example.org"))
    }
}

private final class Team: Encodable {
    let leader: PlainPersonObject
    let members: [PlainPersonObject]

    init(leader: PlainPersonObject, members: [PlainPersonObject]) {
        self.leader = leader
        self.members = members
    }
}

private enum Color: String, Codable {
    case red, green, blue, yellow
}

private struct Containers: Encodable {
    enum Keys: String, CodingKey {
        case zeta, alpha, mid
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("last", forKey: .zeta)
        var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .alpha)
        try nested.encode(1, forKey: .mid)
        try nested.encode("Konoha", forKey: .zeta)
        var list = container.nestedUnkeyedContainer(forKey: .mid)
        try list.encode("Konoha")
        var inList = list.nestedContainer(keyedBy: Keys.self)
        try inList.encode(true, forKey: .alpha)
        var innerList = list.nestedUnkeyedContainer()
        try innerList.encode(Date(timeIntervalSince1970: 0))
        var superContainer = list.superEncoder().container(keyedBy: Keys.self)
        try superContainer.encode(2.5, forKey: .zeta)
    }
}

private class Animal: Encodable {
    enum Keys: String, CodingKey {
        case name, legs
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("Pakkun", forKey: .name)
        try container.encode(4, forKey: .legs)
    }
}

private final class Dog: Animal {
    enum DogKeys: String, CodingKey {
        case bark
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DogKeys.self)
        try container.encode("woof", forKey: .bark)
        try super.encode(to: container.superEncoder())
    }
}

private struct RepeatedKey: Encodable {
    enum Keys: String, CodingKey {
        case b, a
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("first", forKey: .b)
        try container.encode(1, forKey: .a)
        try container.encode("second", forKey: .b)
    }
}

/// Asks for no container at all: an empty bean.
private struct NoContainer: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

/// A class sent as a plain string.
private final class Token: Encodable {
    let text: String

    init(text: String) {
        self.text = text
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A class that lists itself: the value model puts an empty bean in its place.
private final class Loop: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(self)
        try container.encode(self)
    }
}

private struct Refusal: Error {}

private struct Refusing: Encodable {
    func encode(to encoder: any Encoder) throws {
        throw Refusal()
    }
}
