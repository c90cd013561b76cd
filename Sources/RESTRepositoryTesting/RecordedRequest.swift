import Foundation
import HTTPTypes

/// A request as a ``MockTransport`` saw it, with accessors for assertions.
public struct RecordedRequest: Sendable {
    /// The request head.
    public var request: HTTPRequest
    /// The body bytes, or `nil`.
    public var body: Data?

    /// Creates a recorded request.
    public init(request: HTTPRequest, body: Data?) {
        self.request = request
        self.body = body
    }

    /// The method.
    public var method: HTTPRequest.Method { request.method }

    /// The path without the query, e.g. `/announcements/2`.
    public var path: String {
        let full = request.path ?? ""
        return full.firstIndex(of: "?").map { String(full[..<$0]) } ?? full
    }

    /// The query parameters in order, decoded; empty when there is no query.
    public var query: [URLQueryItem] {
        guard let full = request.path, let mark = full.firstIndex(of: "?") else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = String(full[full.index(after: mark)...])
        return components.queryItems ?? []
    }

    /// The query as a dictionary (the last value wins for a repeated name).
    public var queryDictionary: [String: String] {
        query.reduce(into: [:]) { result, item in result[item.name] = item.value ?? "" }
    }

    /// The header fields.
    public var headerFields: HTTPFields { request.headerFields }

    /// The body as UTF-8 text, or `nil` when there is no body or it is not UTF-8.
    public var bodyText: String? {
        body.flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The body parsed as JSON (`NSDictionary`/`NSArray`-free Foundation values), for
    /// comparisons that ignore key order.
    ///
    /// - Throws: when the body is absent or not JSON.
    public func bodyJSON() throws -> JSONValue {
        try JSONValue(parsing: body ?? Data())
    }
}
