/// Sets the direct-write encoder's content to one scalar or nested value (the last one set wins).
struct SpearalDirectSingleValueContainer: SingleValueEncodingContainer {
    let encoder: SpearalDirectEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: SpearalPendingValue) {
        encoder.content = .single(value)
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.floating(value)) }
    mutating func encode(_ value: Float) throws { set(.floating(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.integral(value)) }
    mutating func encode(_ value: Int8) throws { set(.integral(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.integral(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.integral(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(.integral(Int(value))) }
    mutating func encode(_ value: UInt) throws { set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.integral(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.integral(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.integral(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.content = .single(try encoder.context.pending(value, at: nil, in: encoder))
    }
}
