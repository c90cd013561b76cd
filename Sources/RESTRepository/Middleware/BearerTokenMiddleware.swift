import Foundation
import HTTPTypes

/// Sends `Authorization: Bearer <token>` with every request, asking a provider for the token
/// each time so a refreshed or revoked token takes effect at once.
public struct BearerTokenMiddleware: TransportMiddleware {
    private let tokenProvider: @Sendable () async throws -> String?

    /// Creates the middleware.
    ///
    /// - Parameter tokenProvider: returns the current token, or `nil` to send the request
    ///   without `Authorization` (signed out).
    public init(tokenProvider: @escaping @Sendable () async throws -> String?) {
        self.tokenProvider = tokenProvider
    }

    /// Adds the token, unless the request already carries an `Authorization` field.
    ///
    /// - Throws: what the token provider throws, or what the rest of the chain throws.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        next: @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        var request = request
        if request.headerFields[.authorization] == nil, let token = try await tokenProvider() {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body)
    }
}
