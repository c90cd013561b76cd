import Foundation
import HTTPTypes

/// The pieces every repository shares: the transport, the body format (``BodyCoder``), and the
/// one path from a ``RESTRequest`` to a checked ``RESTResponse``.
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
    /// The format of bodies: JSON, Spearal, or one of your own.
    public var coder: any BodyCoder
    /// Query parameter names for paged reads.
    public var paging: PagingConvention
    /// The response store and its policy, or `nil` (the default) for none: every request then
    /// goes to the server.
    public var caching: ResponseCaching?
    /// Called with every successful answer ``send(_:)`` returns, with its request, wherever it
    /// came from (``RESTResponse/origin``); `nil` by default.
    public var responseObserver: (@Sendable (RESTRequest, RESTResponse) async -> Void)?

    /// Creates a client with any body format.
    ///
    /// - Parameters:
    ///   - transport: the transport to send through.
    ///   - paging: query and header names for paged reads (`page`/`per_page` by default).
    ///   - coder: the body format, e.g. ``SpearalBodyCoder``.
    public init(transport: any Transport, paging: PagingConvention = PagingConvention(), coder: any BodyCoder) {
        self.transport = transport
        self.paging = paging
        self.coder = coder
    }

    /// Creates a client speaking JSON.
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
        self.init(transport: transport, paging: paging, coder: JSONBodyCoder(makeEncoder: makeEncoder, makeDecoder: makeDecoder))
    }

    /// Sends a request and returns its response when the status is 2xx.
    ///
    /// With ``caching`` set, a `GET` may be answered from the store, as its ``StorePolicy``
    /// says (``RESTResponse/origin`` tells), and a write forgets what it may have changed.
    ///
    /// - Throws: a ``RepositoryError``: ``RepositoryError/transport(_:)`` or
    ///   ``RepositoryError/cancelled`` when no response came, or the case matching the status.
    public func send(_ request: RESTRequest) async throws -> RESTResponse {
        var request = request
        if let accept = coder.accept, request.headerFields[.accept] == nil {
            request.headerFields[.accept] = accept
        }
        let response = try await answer(request)
        await responseObserver?(request, response)
        return response
    }

    private func answer(_ request: RESTRequest) async throws -> RESTResponse {
        if let caching {
            if request.method == .get, !request.isConditional {
                return try await sendThroughStore(request, caching: caching)
            }
            if request.method != .get, request.method != .head {
                let (head, body) = try await transmit(request)
                if head.status.kind == .successful || [404, 412].contains(head.status.code) {
                    caching.store.invalidate(path: request.path, scope: caching.scope)
                }
                return try Self.checked(head, body)
            }
        }
        let (head, body) = try await transmit(request)
        return try Self.checked(head, body)
    }

    /// Sends a request as it is and returns whatever answer came, mapping only the failures
    /// to get one.
    func transmit(_ request: RESTRequest) async throws -> (HTTPResponse, Data) {
        do {
            return try await transport.send(request.httpRequest, body: request.body)
        } catch let error as RepositoryError {
            throw error
        } catch is CancellationError {
            throw RepositoryError.cancelled
        } catch {
            throw Task.isCancelled ? RepositoryError.cancelled : RepositoryError.transport(error)
        }
    }

    private static func checked(_ head: HTTPResponse, _ body: Data) throws -> RESTResponse {
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
        try await send(request).decode(type, using: coder)
    }

    /// Sends a request and decodes the body as one value, keeping the response's `ETag`.
    ///
    /// - Throws: a ``RepositoryError``.
    public func versioned<Value: Decodable & Sendable>(
        _ request: RESTRequest, as type: Value.Type = Value.self
    ) async throws -> Versioned<Value> {
        let response = try await send(request)
        return Versioned(try response.decode(type, using: coder), etag: response.etag, origin: response.origin)
    }

    /// Sends a request and decodes the body as a list.
    ///
    /// - Throws: a ``RepositoryError``; an undecodable item names its index.
    public func list<Item: Decodable>(
        _ request: RESTRequest, as type: Item.Type = Item.self
    ) async throws -> [Item] {
        try await send(request).decodeList(type, using: coder)
    }

    /// Sends a request whose answer has no body worth reading (204, or a body ignored).
    ///
    /// - Throws: a ``RepositoryError``.
    public func perform(_ request: RESTRequest) async throws {
        _ = try await send(request)
    }

    /// Returns a request with `value` encoded as its body by this client's ``coder``.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: the path relative to the base URL.
    ///   - query: query parameters.
    ///   - value: the body's value.
    ///   - contentType: the media type; the coder's ``BodyCoder/mediaType`` when `nil`.
    /// - Throws: ``RepositoryError/encodingFailed(_:)``.
    public func request(
        _ method: HTTPRequest.Method,
        path: String,
        query: [URLQueryItem] = [],
        body value: some Encodable,
        contentType: String? = nil
    ) throws -> RESTRequest {
        try RESTRequest(method, path: path, query: query)
            .withBody(value, coder: coder, contentType: contentType)
    }
}
