/// A property of a partial object: either *undefined* (not sent, not received) or *defined*
/// with a value — which may itself be `nil` for a null.
///
/// Use it for properties of `Codable` models that take part in differential updates. The
/// ``SpearalEncoder`` leaves undefined fields out of the bean entirely, so the receiver keeps
/// its current value; the ``SpearalDecoder`` makes a field that the message does not carry
/// `.undefined`, and one that it carries as null `.defined(nil)`.
///
/// ```swift
/// struct PersonUpdate: Codable {
///     var id: Int
///     var name: SpearalField<String?> = .undefined
///     var imageUrl: SpearalField<String?> = .undefined
/// }
/// let update = PersonUpdate(id: 1, imageUrl: .defined(nil))   // sends id and imageUrl = null only
/// ```
public enum SpearalField<Value> {
    /// Not part of the message.
    case undefined
    /// Part of the message with this value.
    case defined(Value)

    /// Whether the field is defined.
    public var isDefined: Bool {
        if case .defined = self { return true }
        return false
    }

    /// The value when defined, `nil` when undefined.
    public var definedValue: Value? {
        if case .defined(let value) = self { return value }
        return nil
    }
}

extension SpearalField: Sendable where Value: Sendable {}
extension SpearalField: Equatable where Value: Equatable {}
extension SpearalField: Hashable where Value: Hashable {}

extension SpearalField: Encodable where Value: Encodable {
    /// Encodes the value; an undefined field outside a bean (where it cannot be left out) encodes as null.
    /// - Parameter encoder: the encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .undefined: try container.encodeNil()
        case .defined(let value): try container.encode(value)
        }
    }
}

extension SpearalField: Decodable where Value: Decodable {
    /// Decodes a defined value; a missing key is turned into ``undefined`` by the ``SpearalDecoder``.
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        self = .defined(try decoder.singleValueContainer().decode(Value.self))
    }
}

/// Lets the Codable bridge recognize ``SpearalField`` without knowing its `Value`.
protocol SpearalUndefinable {
    var isUndefined: Bool { get }
    static var undefinedValue: Self { get }
}

extension SpearalField: SpearalUndefinable {
    var isUndefined: Bool { !isDefined }
    static var undefinedValue: SpearalField<Value> { .undefined }
}
