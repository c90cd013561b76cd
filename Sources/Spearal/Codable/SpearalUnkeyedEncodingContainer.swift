/// Appends the elements of a COLLECTION.
struct SpearalUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: SpearalValueEncoder
    let list: SpearalList
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { list.elements.count }

    private func append(_ value: SpearalValue) {
        list.elements.append(value)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.floating(value)) }
    mutating func encode(_ value: Float) throws { append(.floating(Double(value))) }
    mutating func encode(_ value: Int) throws { append(.integral(value)) }
    mutating func encode(_ value: Int8) throws { append(.integral(Int(value))) }
    mutating func encode(_ value: Int16) throws { append(.integral(Int(value))) }
    mutating func encode(_ value: Int32) throws { append(.integral(Int(value))) }
    mutating func encode(_ value: Int64) throws { append(.integral(Int(value))) }
    mutating func encode(_ value: UInt) throws { append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { append(.integral(Int(value))) }
    mutating func encode(_ value: UInt16) throws { append(.integral(Int(value))) }
    mutating func encode(_ value: UInt32) throws { append(.integral(Int(value))) }
    mutating func encode(_ value: UInt64) throws { append(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.encodeChild(value, at: SpearalIndexKey(intValue: count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = SpearalValueEncoder(context: encoder.context, codingPath: codingPath + [SpearalIndexKey(intValue: count)], type: encoder.type)
        let bean = SpearalBean(className: "")
        nested.value = .bean(bean)
        append(.bean(bean))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = SpearalList()
        append(.collection(nested))
        return SpearalUnkeyedEncodingContainer(encoder: encoder, list: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = SpearalValueEncoder(context: encoder.context, codingPath: codingPath + [SpearalIndexKey(intValue: count)], type: encoder.type)
        let bean = SpearalBean(className: "")
        nested.value = .bean(bean)
        append(.bean(bean))
        return nested
    }
}

extension SpearalValue {
    /// An unsigned integer: INTEGRAL when it fits a signed 64-bit integer, else BIG_INTEGRAL.
    static func unsigned(_ value: UInt64) -> SpearalValue {
        value <= UInt64(Int.max) ? .integral(Int(value)) : .bigIntegral(String(value))
    }
}
