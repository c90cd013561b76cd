import Foundation
import HTTPTypes

/// Lets a signing function add signature header fields to every request just before it is
/// sent, with the final path, query and body in view.
///
/// Put it after the middleware that change the request (headers, token) so the signature
/// covers what is sent; a retry signs again with a fresh timestamp.
public struct RequestSigningMiddleware: TransportMiddleware {
    private let sign: @Sendable (inout HTTPRequest, Data?) async throws -> Void

    /// Creates the middleware.
    ///
    /// - Parameter sign: adds the signature fields (e.g. `X-Timestamp`, `X-Signature`) to the
    ///   request; it sees the body bytes to hash.
    public init(sign: @escaping @Sendable (inout HTTPRequest, Data?) async throws -> Void) {
        self.sign = sign
    }

    /// Signs the request and passes it on.
    ///
    /// - Throws: what the signing function or the rest of the chain throws.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        next: @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        var request = request
        try await sign(&request, body)
        return try await next(request, body)
    }
}
