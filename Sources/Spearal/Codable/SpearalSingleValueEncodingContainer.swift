/// Sets the encoder's value to one scalar or nested value.
struct SpearalSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: SpearalValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: SpearalValue) {
        encoder.value = value
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
        set(try encoder.encodeChild(value, at: nil))
    }
}
