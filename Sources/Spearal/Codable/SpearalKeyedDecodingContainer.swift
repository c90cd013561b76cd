/// Reads the properties of a bean (or the string-keyed entries of a map).
///
/// Properties the Swift type does not ask for were already fully decoded (their references
/// count) and are simply ignored. Keys the message lacks throw `keyNotFound`, except for
/// optionals (`nil`) and ``SpearalField`` (`.undefined`).
struct SpearalKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private typealias Unbox = SpearalValueDecoder
    let decoder: SpearalValueDecoder
    let properties: [SpearalBean.Property]
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The Swift name of the decoded type, which selects its property aliases.
    private var localClass: String { decoder.context.localClassName(of: decoder.type) }

    var allKeys: [Key] {
        let context = decoder.context
        guard context.hasPropertyAliases else { return properties.compactMap { Key(stringValue: $0.name) } }
        let localClass = localClass
        return properties.compactMap { Key(stringValue: context.aliases.localPropertyName($0.name, inClass: localClass)) }
    }

    private func remoteName(_ key: Key) -> String {
        let context = decoder.context
        return context.hasPropertyAliases ? context.aliases.remotePropertyName(key.stringValue, inClass: localClass) : key.stringValue
    }

    private func find(_ key: Key) -> SpearalValue? {
        let name = remoteName(key)
        return properties.first { $0.name == name }?.value
    }

    private func require(_ key: Key) throws -> SpearalValueDecoder {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No property \(remoteName(key))"))
        }
        return decoder.nested(value, at: .key(key))
    }

    /// The value at `key`, or `keyNotFound`.
    private func value(for key: Key) throws -> SpearalValue {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No property \(remoteName(key))"))
        }
        return value
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Unbox.unboxBool(value(for: key), at: codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Unbox.unboxString(value(for: key), at: codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Unbox.unboxDouble(value(for: key), at: codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try Unbox.unboxFloat(value(for: key), at: codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try Unbox.unboxInteger(value(for: key), type, at: codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = find(key) else {
            // A property the message does not carry is undefined, not an error, for a SpearalField.
            if let undefinable = T.self as? any SpearalUndefinable.Type, let undefined = undefinable.undefinedValue as? T {
                return undefined
            }
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No property \(remoteName(key))"))
        }
        return try decoder.decodeChild(T.self, from: value, at: .key(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = find(key), !value.isNull else { return nil }
        return try decoder.decodeChild(T.self, from: value, at: .key(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = find(key), !value.isNull else { return nil }
        return try Unbox.unboxString(value, at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try require(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try require(key).unkeyedContainer()
    }

    /// A superclass reads from the same bean, mirroring how the encoder flattens it.
    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}
