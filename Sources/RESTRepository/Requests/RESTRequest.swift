import Foundation
import HTTPTypes

/// A request a repository is about to send: method, path, query, header fields and body.
///
/// Repositories build one per call; custom endpoints build their own the same way:
///
/// ```swift
/// let request = RESTRequest(.get, path: "/announcements/featured")
/// ```
public struct RESTRequest: Sendable, Equatable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path relative to the transport's base URL, e.g. `/announcements/2`, without a query.
    public var path: String
    /// The query parameters, in order; encoded into the URL, never into a body.
    public var query: [URLQueryItem]
    /// The header fields.
    public var headerFields: HTTPFields
    /// The body bytes, or `nil` for none.
    public var body: Data?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: the path relative to the base URL.
    ///   - query: query parameters (none by default).
    ///   - headerFields: header fields (none by default).
    ///   - body: body bytes (none by default).
    public init(
        _ method: HTTPRequest.Method,
        path: String,
        query: [URLQueryItem] = [],
        headerFields: HTTPFields = [:],
        body: Data? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.body = body
    }

    /// The path followed by the percent-encoded query, as sent on the request line.
    ///
    /// Names and values keep only RFC 3986 unreserved characters; everything else, `+`, `&`
    /// and `=` included, is percent-encoded, the same on every platform.
    public var pathWithQuery: String {
        guard !query.isEmpty else { return path }
        let pairs = query.map { item in
            let name = RESTRequest.percentEncoded(item.name)
            return item.value.map { name + "=" + RESTRequest.percentEncoded($0) } ?? name
        }
        return path + "?" + pairs.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Whether the request carries a condition of its own (`If-None-Match`,
    /// `If-Modified-Since`, …); a store then leaves it alone.
    public var isConditional: Bool {
        [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange].contains { headerFields[$0] != nil }
    }

    /// The swift-http-types request head for this request.
    public var httpRequest: HTTPRequest {
        HTTPRequest(
            method: method, scheme: nil, authority: nil, path: pathWithQuery,
            headerFields: headerFields)
    }

    /// Returns a copy with a JSON body encoded by `encoder` and the matching `Content-Type`.
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - encoder: the encoder to use.
    ///   - contentType: the media type (`application/json` by default).
    /// - Throws: ``RepositoryError/encodingFailed(_:)`` when the value cannot be encoded.
    public func withJSONBody(
        _ value: some Encodable,
        encoder: JSONEncoder,
        contentType: String = "application/json"
    ) throws -> RESTRequest {
        var copy = self
        do {
            copy.body = try encoder.encode(value)
        } catch {
            throw RepositoryError.encodingFailed(String(describing: error))
        }
        copy.headerFields[.contentType] = contentType
        return copy
    }

    /// Returns a copy with a body encoded by `coder` and the matching `Content-Type`.
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - coder: the body format.
    ///   - contentType: the media type; the coder's ``BodyCoder/mediaType`` when `nil`.
    /// - Throws: ``RepositoryError/encodingFailed(_:)`` when the value cannot be encoded.
    public func withBody(_ value: some Encodable, coder: any BodyCoder, contentType: String? = nil) throws -> RESTRequest {
        var copy = self
        do {
            copy.body = try coder.encode(value)
        } catch {
            throw RepositoryError.encodingFailed(String(describing: error))
        }
        copy.headerFields[.contentType] = contentType ?? coder.mediaType
        return copy
    }

    /// Returns a copy carrying one more header field, replacing a field of the same name.
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the field value; `nil` leaves the request unchanged.
    public func setting(_ name: HTTPField.Name, to value: String?) -> RESTRequest {
        guard let value else { return self }
        var copy = self
        copy.headerFields[name] = value
        return copy
    }
}
