import Foundation

/// How the Codable bridge treats values of a Swift type, decided once per type.
enum SpearalTypeKind: Equatable {
    /// Encoded through its own `encode(to:)`.
    case plain
    /// A class: its instances keep identity (shared instances, cycles).
    case classType
    /// `Date` → DATE_TIME.
    case date
    /// `Data` → BYTE_ARRAY.
    case data
    /// `Decimal` → BIG_FLOATING.
    case decimal
    /// `URL` → STRING.
    case url
    /// ``SpearalEnumeration`` → ENUM.
    case enumeration
    /// `Dictionary` → MAP.
    case dictionary
    /// ``SpearalField``: left out of beans when undefined.
    case undefinable
    /// `Array`: written and read element by element without an unkeyed container.
    case array

    /// The kind of `type`; `decoding` selects which dictionary conformance counts (Decodable or Encodable).
    init(_ type: Any.Type, decoding: Bool = false) {
        let isDictionary = decoding ? type is any SpearalDictionaryDecodable.Type : type is any SpearalDictionaryCodable.Type
        switch type {
        case is Date.Type: self = .date
        case is Data.Type: self = .data
        case is Decimal.Type: self = .decimal
        case is URL.Type: self = .url
        case is any SpearalEnumeration.Type: self = .enumeration
        case _ where isDictionary: self = .dictionary
        case _ where decoding ? type is any SpearalArrayDecodable.Type : type is any SpearalArrayEncodable.Type:
            self = .array
        case is any SpearalUndefinable.Type: self = .undefinable
        case is AnyObject.Type: self = .classType
        default: self = .plain
        }
    }

    /// Whether `lhs` sorts before `rhs` as Java's `String.compareTo` does (UTF-16 code units).
    ///
    /// UTF-8 byte order is the same except between supplementary characters and U+E000...U+FFFF,
    /// whose UTF-8 lead bytes are 0xEE and above: only when the first differing bytes are both
    /// such lead bytes are UTF-16 units compared.
    static func javaOrder(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let a?, let b?) where a != b:
                return a >= 0xEE && b >= 0xEE ? lhs.utf16.lexicographicallyPrecedes(rhs.utf16) : a < b
            default: continue
            }
        }
    }
}
