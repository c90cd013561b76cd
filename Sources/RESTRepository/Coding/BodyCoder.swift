import Foundation
import HTTPTypes

/// The format of request and response bodies: how values become bytes and back, which media
/// types say so, and how a read asks for only some properties.
///
/// A ``RESTClient`` has one; every repository call goes through it, so switching a client from
/// JSON to Spearal changes no call. Use ``JSONBodyCoder`` or ``SpearalBodyCoder``, or write one
/// for another format. Error bodies are not decoded through it: they are problem+json in
/// every format.
///
/// ```swift
/// let client = RESTClient(transport: transport, coder: SpearalBodyCoder())
/// ```
public protocol BodyCoder: Sendable {
    /// The media type of bodies in this format, sent as `Content-Type`.
    var mediaType: String { get }
    /// The `Accept` value sent with every request, or `nil` to send none (servers that default
    /// to this format).
    var accept: String? { get }
    /// The media type of a partial update (`PATCH`) in this format.
    var patchMediaType: String { get }

    /// Encodes a request body.
    ///
    /// - Throws: any error; the client reports it as ``RepositoryError/encodingFailed(_:)``.
    func encode<Value: Encodable>(_ value: Value) throws -> Data

    /// Decodes a response body.
    ///
    /// - Throws: any error; the client reports it as ``RepositoryError/undecodable(_:_:)``.
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value

    /// The request, asking for only `properties` (the id always comes too) of the objects of
    /// class `className`.
    ///
    /// Formats differ in what they can name: Spearal's filter names the class, so it applies
    /// wherever such objects appear; JSON's `fields` has no class and names properties of the
    /// route's own objects. Pass the class of the objects the route answers with, and both mean
    /// the same.
    ///
    /// - Parameters:
    ///   - properties: the property names wanted.
    ///   - className: the wire class of the objects they belong to.
    ///   - request: the read to narrow.
    func selecting(_ properties: [String], of className: String, in request: RESTRequest) -> RESTRequest
}

/// JSON bodies: `application/json`, `application/merge-patch+json` for patches, and a query
/// parameter (`fields=title,createdAt`) to ask for some properties.
public struct JSONBodyCoder: BodyCoder {
    /// Makes the encoder for request bodies.
    public var makeEncoder: @Sendable () -> JSONEncoder
    /// Makes the decoder for response bodies.
    public var makeDecoder: @Sendable () -> JSONDecoder
    /// The query parameter naming the properties a read wants.
    public var fieldsParameter: String

    /// Creates a JSON coder.
    ///
    /// - Parameters:
    ///   - fieldsParameter: the query parameter for property selection (`fields`).
    ///   - makeEncoder: makes the body encoder (a plain `JSONEncoder` by default).
    ///   - makeDecoder: makes the body decoder (a plain `JSONDecoder` by default).
    public init(
        fieldsParameter: String = "fields",
        makeEncoder: @escaping @Sendable () -> JSONEncoder = { JSONEncoder() },
        makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) {
        self.fieldsParameter = fieldsParameter
        self.makeEncoder = makeEncoder
        self.makeDecoder = makeDecoder
    }

    /// `application/json`.
    public var mediaType: String { "application/json" }
    /// None: JSON is what servers answer by default.
    public var accept: String? { nil }
    /// `application/merge-patch+json` (RFC 7396).
    public var patchMediaType: String { "application/merge-patch+json" }

    /// Encodes with a fresh encoder from ``makeEncoder``.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        try makeEncoder().encode(value)
    }

    /// Decodes with a fresh decoder from ``makeDecoder``.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try makeDecoder().decode(type, from: data)
    }

    /// Adds `fields=a,b` to the query (the class is the route's own).
    public func selecting(_ properties: [String], of className: String, in request: RESTRequest) -> RESTRequest {
        var copy = request
        copy.query.append(URLQueryItem(name: fieldsParameter, value: properties.joined(separator: ",")))
        return copy
    }
}
