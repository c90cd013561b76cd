import Foundation
import Spearal

/// A value encoded with the properties a ``PropertySelection`` drops left out, through any
/// `Encoder` (the JSON twin of Spearal's property filter).
///
/// Objects are recognised by their wire class (`SpearalClassNamed`) at any depth, as Spearal
/// does. Everything else reaches the underlying encoder unchanged, so with nothing dropped the
/// bytes are exactly those of the plain value.
struct PropertyFiltered<Value: Encodable>: Encodable {
    let value: Value
    let selection: PropertySelection

    func encode(to encoder: any Encoder) throws {
        let kept = (Value.self as? any SpearalClassNamed.Type).flatMap { selection.keptProperties(ofClassNamed: $0.spearalClassName) }
        try value.encode(to: PropertyFilteringEncoder(base: encoder, selection: selection, kept: kept))
    }
}

/// Passes a value's containers through, dropping the keys of a filtered class.
private struct PropertyFilteringEncoder: Encoder {
    let base: any Encoder
    let selection: PropertySelection
    /// The keys kept in this value's keyed container; `nil` keeps all.
    let kept: Set<String>?

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FilteringKeyedContainer(base: base.container(keyedBy: type), selection: selection, kept: kept))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FilteringUnkeyedContainer(base: base.unkeyedContainer(), selection: selection)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FilteringSingleValueContainer(base: base.singleValueContainer(), selection: selection)
    }
}

extension PropertySelection {
    /// Whether a value of type `T` goes to the underlying encoder as it is: the types encoders
    /// treat specially (dates and data have strategies) contain no objects to filter.
    fileprivate static func passesThrough<T>(_ type: T.Type) -> Bool {
        T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self || T.self == String.self
    }
}

private struct FilteringKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    let selection: PropertySelection
    let kept: Set<String>?

    var codingPath: [any CodingKey] { base.codingPath }

    private func keeps(_ key: Key) -> Bool {
        kept?.contains(key.stringValue) ?? true
    }

    mutating func encodeNil(forKey key: Key) throws {
        if keeps(key) { try base.encodeNil(forKey: key) }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard keeps(key) else { return }
        if PropertySelection.passesThrough(T.self) {
            try base.encode(value, forKey: key)
        } else {
            try base.encode(PropertyFiltered(value: value, selection: selection), forKey: key)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FilteringKeyedContainer<NestedKey>(
            base: base.nestedContainer(keyedBy: keyType, forKey: key), selection: selection, kept: nil))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FilteringUnkeyedContainer(base: base.nestedUnkeyedContainer(forKey: key), selection: selection)
    }

    mutating func superEncoder() -> any Encoder {
        PropertyFilteringEncoder(base: base.superEncoder(), selection: selection, kept: kept)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        PropertyFilteringEncoder(base: base.superEncoder(forKey: key), selection: selection, kept: nil)
    }
}

private struct FilteringUnkeyedContainer: UnkeyedEncodingContainer {
    var base: any UnkeyedEncodingContainer
    let selection: PropertySelection

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int { base.count }

    mutating func encodeNil() throws { try base.encodeNil() }
    mutating func encode(_ value: Bool) throws { try base.encode(value) }
    mutating func encode(_ value: String) throws { try base.encode(value) }
    mutating func encode(_ value: Double) throws { try base.encode(value) }
    mutating func encode(_ value: Float) throws { try base.encode(value) }
    mutating func encode(_ value: Int) throws { try base.encode(value) }
    mutating func encode(_ value: Int8) throws { try base.encode(value) }
    mutating func encode(_ value: Int16) throws { try base.encode(value) }
    mutating func encode(_ value: Int32) throws { try base.encode(value) }
    mutating func encode(_ value: Int64) throws { try base.encode(value) }
    mutating func encode(_ value: UInt) throws { try base.encode(value) }
    mutating func encode(_ value: UInt8) throws { try base.encode(value) }
    mutating func encode(_ value: UInt16) throws { try base.encode(value) }
    mutating func encode(_ value: UInt32) throws { try base.encode(value) }
    mutating func encode(_ value: UInt64) throws { try base.encode(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if PropertySelection.passesThrough(T.self) {
            try base.encode(value)
        } else {
            try base.encode(PropertyFiltered(value: value, selection: selection))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FilteringKeyedContainer<NestedKey>(base: base.nestedContainer(keyedBy: keyType), selection: selection, kept: nil))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        FilteringUnkeyedContainer(base: base.nestedUnkeyedContainer(), selection: selection)
    }

    mutating func superEncoder() -> any Encoder {
        PropertyFilteringEncoder(base: base.superEncoder(), selection: selection, kept: nil)
    }
}

private struct FilteringSingleValueContainer: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer
    let selection: PropertySelection

    var codingPath: [any CodingKey] { base.codingPath }

    mutating func encodeNil() throws { try base.encodeNil() }
    mutating func encode(_ value: Bool) throws { try base.encode(value) }
    mutating func encode(_ value: String) throws { try base.encode(value) }
    mutating func encode(_ value: Double) throws { try base.encode(value) }
    mutating func encode(_ value: Float) throws { try base.encode(value) }
    mutating func encode(_ value: Int) throws { try base.encode(value) }
    mutating func encode(_ value: Int8) throws { try base.encode(value) }
    mutating func encode(_ value: Int16) throws { try base.encode(value) }
    mutating func encode(_ value: Int32) throws { try base.encode(value) }
    mutating func encode(_ value: Int64) throws { try base.encode(value) }
    mutating func encode(_ value: UInt) throws { try base.encode(value) }
    mutating func encode(_ value: UInt8) throws { try base.encode(value) }
    mutating func encode(_ value: UInt16) throws { try base.encode(value) }
    mutating func encode(_ value: UInt32) throws { try base.encode(value) }
    mutating func encode(_ value: UInt64) throws { try base.encode(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if PropertySelection.passesThrough(T.self) {
            try base.encode(value)
        } else {
            try base.encode(PropertyFiltered(value: value, selection: selection))
        }
    }
}
