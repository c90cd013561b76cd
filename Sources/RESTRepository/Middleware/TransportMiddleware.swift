import Foundation
import HTTPTypes

/// A step between a repository and its transport that may change the request, the response,
/// or both (headers, authentication, signing, logging, retries).
public protocol TransportMiddleware: Sendable {
    /// Handles one exchange, calling `next` to pass the request on (zero, one or more times).
    ///
    /// - Parameters:
    ///   - request: the request so far.
    ///   - body: the request body.
    ///   - next: the rest of the chain, ending at the transport.
    /// - Returns: the response handed back towards the repository.
    /// - Throws: what `next` threw, or the middleware's own error.
    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        next: @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data)
}

/// A ``Transport`` that runs each request through middleware before the wrapped transport.
///
/// The first middleware sees the request first and the response last.
public struct MiddlewareTransport: Transport {
    /// The transport at the end of the chain.
    public let base: any Transport
    /// The middleware, outermost first.
    public let middleware: [any TransportMiddleware]

    /// Wraps a transport in middleware.
    ///
    /// - Parameters:
    ///   - base: the transport that finally sends the request.
    ///   - middleware: the middleware, outermost first.
    public init(_ base: any Transport, middleware: [any TransportMiddleware]) {
        self.base = base
        self.middleware = middleware
    }

    /// Sends the request through every middleware, then the wrapped transport.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        try await MiddlewareTransport.run(request, body, middleware[...], base)
    }

    private static func run(
        _ request: HTTPRequest,
        _ body: Data?,
        _ chain: ArraySlice<any TransportMiddleware>,
        _ base: any Transport
    ) async throws -> (HTTPResponse, Data) {
        guard let first = chain.first else {
            return try await base.send(request, body: body)
        }
        let rest = chain.dropFirst()
        return try await first.intercept(request, body: body) { request, body in
            try await run(request, body, rest, base)
        }
    }
}

extension Transport {
    /// This transport wrapped in middleware, outermost first.
    ///
    /// - Parameter middleware: the middleware to run before this transport.
    public func with(_ middleware: any TransportMiddleware...) -> MiddlewareTransport {
        MiddlewareTransport(self, middleware: middleware)
    }
}
