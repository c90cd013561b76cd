/// Writes the properties of a bean; keys pass through the property aliases of the bean's class.
struct SpearalKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: SpearalValueEncoder
    let bean: SpearalBean
    let localClass: String
    /// The remote names the property filter keeps, `nil` when it keeps all.
    let keptNames: [String]?
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func remoteName(_ key: Key) -> String {
        let aliases = encoder.context.classNames.aliases
        return aliases.hasPropertyAliases ? aliases.remotePropertyName(key.stringValue, inClass: localClass) : key.stringValue
    }

    private func set(_ value: SpearalValue, for key: Key) {
        let name = remoteName(key)
        if let keptNames, !keptNames.contains(name) { return }
        store(value, as: name)
    }

    private func store(_ value: SpearalValue, as name: String) {
        if bean.properties.contains(where: { $0.name == name }) {
            bean[name] = value
        } else {
            bean.properties.append((name, value))
        }
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.floating(value), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.floating(Double(value)), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integral(value), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integral(Int(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integral(Int(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integral(Int(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(SpearalValue.unsigned(UInt64(value)), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(SpearalValue.unsigned(value), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // An undefined SpearalField is not part of the bean at all (partial object).
        let name = remoteName(key)
        if let keptNames, !keptNames.contains(name) { return }
        let kind = encoder.context.kind(of: T.self)
        if kind == .undefinable, let field = value as? any SpearalUndefinable, field.isUndefined {
            return
        }
        store(try encoder.encodeChild(value, at: key, kind: kind), as: name)
    }

    /// Nil optionals are sent as null, as spearal-java sends null fields (not left out).
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return set(.null, for: key) }
        try encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        set(value.map(SpearalValue.string) ?? .null, for: key)
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        set(value.map(SpearalValue.integral) ?? .null, for: key)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        set(value.map(SpearalValue.bool) ?? .null, for: key)
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        set(value.map(SpearalValue.floating) ?? .null, for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // A nested keyed container has no type of its own: it becomes a bean without class name.
        let nested = SpearalValueEncoder(context: encoder.context, codingPath: codingPath + [key], type: encoder.type)
        let bean = SpearalBean(className: "")
        nested.value = .bean(bean)
        set(.bean(bean), for: key)
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let list = SpearalList()
        set(.collection(list), for: key)
        return SpearalUnkeyedEncodingContainer(encoder: encoder, list: list)
    }

    /// A superclass writes into the same bean, so its properties sit beside the subclass's, as in Java.
    mutating func superEncoder() -> any Encoder {
        makeSuperEncoder(codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        makeSuperEncoder(codingPath: codingPath + [key])
    }

    private func makeSuperEncoder(codingPath: [any CodingKey]) -> any Encoder {
        let nested = SpearalValueEncoder(context: encoder.context, codingPath: codingPath, type: encoder.type)
        nested.value = .bean(bean)
        return nested
    }
}
