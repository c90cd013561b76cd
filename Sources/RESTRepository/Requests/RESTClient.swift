import Foundation
import HTTPTypes

/// The pieces every repository shares: the transport, the JSON coders, and the one path from
/// a ``RESTRequest`` to a checked ``RESTResponse``.
///
/// Custom endpoints use the same pieces:
///
/// ```swift
/// func featured() async throws -> [Item] {
///     try await client.list(RESTRequest(.get, path: path + "/featured"))
/// }
/// ```
public struct RESTClient: Sendable {
    /// The transport requests travel through, middleware included.
    public var transport: any Transport
    /// Makes the encoder for request bodies.
    public var makeEncoder: @Sendable () -> JSONEncoder
    /// Makes the decoder for response bodies.
    public var makeDecoder: @Sendable () -> JSONDecoder
    /// Query parameter names for paged reads.
    public var paging: PagingConvention

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: the transport to send through.
    ///   - paging: query and header names for paged reads (`page`/`per_page` by default).
    ///   - makeEncoder: makes the body encoder (a plain `JSONEncoder` by default).
    ///   - makeDecoder: makes the body decoder (a plain `JSONDecoder` by default).
    public init(
        transport: any Transport,
        paging: PagingConvention = PagingConvention(),
        makeEncoder: @escaping @Sendable () -> JSONEncoder = { JSONEncoder() },
        makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) {
        self.transport = transport
        self.paging = paging
        self.makeEncoder = makeEncoder
        self.makeDecoder = makeDecoder
    }

    /// Sends a request and returns its response when the status is 2xx.
    ///
    /// - Throws: a ``RepositoryError``: ``RepositoryError/transport(_:)`` or
    ///   ``RepositoryError/cancelled`` when no response came, or the case matching the status.
    public func send(_ request: RESTRequest) async throws -> RESTResponse {
        let head: HTTPResponse
        let body: Data
        do {
            (head, body) = try await transport.send(request.httpRequest, body: request.body)
        } catch let error as RepositoryError {
            throw error
        } catch is CancellationError {
            throw RepositoryError.cancelled
        } catch {
            throw Task.isCancelled ? RepositoryError.cancelled : RepositoryError.transport(error)
        }
        if let error = RepositoryError(response: head, body: body) {
            throw error
        }
        return RESTResponse(head: head, body: body)
    }

    /// Sends a request and decodes the body as one value.
    ///
    /// - Throws: a ``RepositoryError``.
    public func value<Value: Decodable>(
        _ request: RESTRequest, as type: Value.Type = Value.self
    ) async throws -> Value {
        try await send(request).decode(type, using: makeDecoder())
    }

    /// Sends a request and decodes the body as one value, keeping the response's `ETag`.
    ///
    /// - Throws: a ``RepositoryError``.
    public func versioned<Value: Decodable & Sendable>(
        _ request: RESTRequest, as type: Value.Type = Value.self
    ) async throws -> Versioned<Value> {
        let response = try await send(request)
        return Versioned(try response.decode(type, using: makeDecoder()), etag: response.etag)
    }

    /// Sends a request and decodes the body as a JSON array.
    ///
    /// - Throws: a ``RepositoryError``; an undecodable item names its index.
    public func list<Item: Decodable>(
        _ request: RESTRequest, as type: Item.Type = Item.self
    ) async throws -> [Item] {
        try await send(request).decodeList(type, using: makeDecoder())
    }

    /// Sends a request whose answer has no body worth reading (204, or a body ignored).
    ///
    /// - Throws: a ``RepositoryError``.
    public func perform(_ request: RESTRequest) async throws {
        _ = try await send(request)
    }

    /// Returns a request with `value` encoded as its JSON body by this client's encoder.
    ///
    /// - Throws: ``RepositoryError/encodingFailed(_:)``.
    public func request(
        _ method: HTTPRequest.Method,
        path: String,
        query: [URLQueryItem] = [],
        json value: some Encodable,
        contentType: String = "application/json"
    ) throws -> RESTRequest {
        try RESTRequest(method, path: path, query: query)
            .withJSONBody(value, encoder: makeEncoder(), contentType: contentType)
    }
}
