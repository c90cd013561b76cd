/// Collects the elements of a COLLECTION for the direct-write encoder.
struct SpearalDirectUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: SpearalDirectEncoder
    let list: SpearalPendingList
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { list.elements.count }

    private func add(_ value: SpearalPendingValue) {
        list.append(value)
    }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(.floating(value)) }
    mutating func encode(_ value: Float) throws { add(.floating(Double(value))) }
    mutating func encode(_ value: Int) throws { add(.integral(value)) }
    mutating func encode(_ value: Int8) throws { add(.integral(Int(value))) }
    mutating func encode(_ value: Int16) throws { add(.integral(Int(value))) }
    mutating func encode(_ value: Int32) throws { add(.integral(Int(value))) }
    mutating func encode(_ value: Int64) throws { add(.integral(Int(value))) }
    mutating func encode(_ value: UInt) throws { add(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { add(.integral(Int(value))) }
    mutating func encode(_ value: UInt16) throws { add(.integral(Int(value))) }
    mutating func encode(_ value: UInt32) throws { add(.integral(Int(value))) }
    mutating func encode(_ value: UInt64) throws { add(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        list.append(try encoder.context.pending(value, at: .index(count), in: encoder))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let bean = SpearalPendingBean(className: "", beanType: nil)
        let element = SpearalPathElement.index(count)
        list.append(.bean(bean, at: element))
        return encoder.nested(at: element, content: .bean(bean)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        // Like the value-model encoder, the nested elements' paths do not include this index.
        let nested = SpearalPendingList()
        list.append(.list(nested, at: nil))
        return SpearalDirectUnkeyedContainer(encoder: encoder, list: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let bean = SpearalPendingBean(className: "", beanType: nil)
        let element = SpearalPathElement.index(count)
        list.append(.bean(bean, at: element))
        return encoder.nested(at: element, content: .bean(bean))
    }
}
