import Foundation

/// Encodes values as Spearal messages (`application/spearal`), like `JSONEncoder` does JSON.
///
/// `Encodable` structs and classes become beans: the class name is the type's
/// ``SpearalClassNamed/spearalClassName`` or its Swift name passed through
/// ``aliasStrategy``; the properties are sorted alphabetically (UTF-16 order), as spearal-java
/// sends them, so the bytes match a Java server's. `nil` optionals are sent as null, undefined
/// ``SpearalField``s are left out (partial objects). `Date` becomes a UTC DATE_TIME, `Data` a
/// BYTE_ARRAY, `Decimal` a BIG_FLOATING, arrays COLLECTIONs, dictionaries MAPs, and
/// ``SpearalEnumeration`` enums ENUMs.
///
/// **Object graphs.** A class instance reached twice in one message is sent once and then as
/// a reference, and a cycle between class instances (`a.friend = b; b.friend = a`) is sent as
/// a back-reference instead of recursing forever. Superclass properties are merged into the
/// subclass's bean (`superEncoder()`), sorted together. To *decode* cycles, use the value
/// model (``SpearalDecoder/decodeValue(from:)``): `Decodable` cannot build an instance that
/// refers to itself before its initializer returns.
///
/// ```swift
/// let data = try SpearalEncoder().encode(person)
/// ```
public struct SpearalEncoder: Sendable {
    /// Keeps only some properties of some classes (by remote class name).
    public var propertyFilter: SpearalPropertyFilter
    /// Maps Swift type and property names to the names on the wire.
    public var aliasStrategy: SpearalAliasStrategy

    /// Creates an encoder.
    /// - Parameters:
    ///   - propertyFilter: the properties to keep per class; empty keeps everything.
    ///   - aliasStrategy: the class and property name mapping; empty uses Swift names.
    public init(propertyFilter: SpearalPropertyFilter = SpearalPropertyFilter(),
                aliasStrategy: SpearalAliasStrategy = SpearalAliasStrategy()) {
        self.propertyFilter = propertyFilter
        self.aliasStrategy = aliasStrategy
    }

    /// Encodes `value` as one Spearal message.
    ///
    /// The bytes are written as the value is walked, without building the value model; they
    /// are the same as ``encodeValue(_:)`` writes for ``makeValue(_:)``. Properties the
    /// ``propertyFilter`` drops are skipped before their values are encoded.
    /// - Parameter value: the value to encode.
    /// - Returns: the message bytes.
    /// - Throws: `EncodingError` from the value's `encode(to:)`, or a ``SpearalError`` for a
    ///   value the format cannot carry (an invalid date, a malformed big number).
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let context = SpearalDirectEncodingContext(aliases: aliasStrategy, filter: propertyFilter)
        try context.write(value, parent: nil, at: nil)
        return context.takeData()
    }

    /// Converts `value` to the value model without writing bytes (to inspect or print it).
    ///
    /// If `value` contains cycles between class instances, so does the result: call
    /// ``SpearalValue/dismantle()`` when done with it.
    /// - Parameter value: the value to convert.
    /// - Returns: the Spearal value, with ``propertyFilter`` applied to its beans.
    /// - Throws: `EncodingError` from the value's `encode(to:)`.
    public func makeValue<T: Encodable>(_ value: T) throws -> SpearalValue {
        try makeValue(value, context: SpearalEncodingContext(aliases: aliasStrategy, filter: propertyFilter))
    }

    private func makeValue<T: Encodable>(_ value: T, context: SpearalEncodingContext) throws -> SpearalValue {
        let root = SpearalValueEncoder(context: context, codingPath: [], type: T.self)
        do {
            return try root.encodeChild(value, at: nil)
        } catch {
            // Beans built for class instances may already refer to each other: free them.
            for bean in context.instances.values {
                bean.dismantle()
            }
            throw error
        }
    }

    /// Encodes a value-model graph, keeping its shared and cyclic objects as references.
    /// - Parameter value: the value to encode.
    /// - Returns: the message bytes.
    /// - Throws: ``SpearalError/unencodableValue(_:)`` for an invalid date or big number.
    public func encodeValue(_ value: SpearalValue) throws(SpearalError) -> Data {
        var writer = SpearalWriter(filter: propertyFilter)
        try writer.write(value)
        return writer.takeData()
    }
}
