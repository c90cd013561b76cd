/// Any JSON value, decoded without a target shape, so the server can tell broken JSON (400)
/// from well-formed JSON of the wrong shape (422) and absent keys from `null` ones.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a request body.
    ///
    /// - Throws: ``APIError`` 400 when the bytes are not JSON (RFC 8259, strictly).
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do {
            return try StrictJSONParser.parse(bytes)
        } catch {
            throw APIError.badRequest("The request body is not valid JSON (\(error.reason) at byte \(error.offset)).")
        }
    }

    /// A short name of the value's JSON type, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
