/// Collects the properties of a bean for the direct-write encoder; keys pass through the
/// property aliases of the bean's class, and properties the filter drops are skipped before
/// their value is even looked at.
struct SpearalDirectKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: SpearalDirectEncoder
    let bean: SpearalPendingBean
    let localClass: String
    /// The remote names the property filter keeps, `nil` when it keeps all.
    let keptNames: [String]?
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// The wire name of `key`, or `nil` when the property filter drops it.
    private func keptName(_ key: Key) -> String? {
        let context = encoder.context
        let name = context.hasPropertyAliases
            ? context.aliases.remotePropertyName(key.stringValue, inClass: localClass) : key.stringValue
        if let keptNames, !keptNames.contains(name) { return nil }
        return name
    }

    private func add(_ value: @autoclosure () -> SpearalPendingValue, for key: Key) {
        guard let name = keptName(key) else { return }
        bean.append(value(), as: name)
    }

    mutating func encodeNil(forKey key: Key) throws { add(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(.floating(value), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(.floating(Double(value)), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(.integral(value), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(.integral(Int(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(.integral(Int(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(.integral(Int(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(.unsigned(UInt64(value)), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.integral(Int(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.unsigned(value), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard let name = keptName(key) else { return }
        let context = encoder.context
        if let leaf = try context.leafValue(value, codingPath: codingPath) {
            return bean.append(leaf, as: name)
        }
        // An undefined SpearalField is not part of the bean at all (partial object).
        if context.kind(of: T.self) == .undefinable, let field = value as? any SpearalUndefinable, field.isUndefined {
            return
        }
        bean.append(.encodable(value, at: .key(key)), as: name)
    }

    /// Nil optionals are sent as null, as spearal-java sends null fields (not left out).
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return add(.null, for: key) }
        try encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        add(value.map(SpearalPendingValue.string) ?? .null, for: key)
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        add(value.map(SpearalPendingValue.integral) ?? .null, for: key)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        add(value.map(SpearalPendingValue.bool) ?? .null, for: key)
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        add(value.map(SpearalPendingValue.floating) ?? .null, for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // A nested keyed container has no type of its own: it becomes a bean without class name.
        let nestedBean = SpearalPendingBean(className: "", beanType: nil)
        if let name = keptName(key) {
            bean.append(.bean(nestedBean, at: .key(key)), as: name)
        }
        return encoder.nested(at: .key(key), content: .bean(nestedBean)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        // Like the value-model encoder, the elements' paths do not include `key`.
        let list = SpearalPendingList()
        if let name = keptName(key) {
            bean.append(.list(list, at: nil), as: name)
        }
        return SpearalDirectUnkeyedContainer(encoder: encoder, list: list)
    }

    /// A superclass writes into the same bean, so its properties sit beside the subclass's, as in Java.
    mutating func superEncoder() -> any Encoder {
        encoder.nested(at: nil, content: .bean(bean))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.nested(at: .key(key), content: .bean(bean))
    }
}
