import Foundation
import HTTPTypes

/// Sends `Authorization: Bearer <token>` with every request, asking a provider for the token
/// each time so a refreshed or revoked token takes effect at once.
///
/// Requests to ``excludedPaths`` (such as `/login`) go without a token. When a request that
/// carried the provider's token is answered 401, the `onUnauthorized` callback is told which token failed,
/// so a session store can drop it; the 401 itself still reaches the caller.
public struct BearerTokenMiddleware: TransportMiddleware {
    private let tokenProvider: @Sendable () async throws -> String?
    /// Paths (without query, relative to the base URL) that never get the token.
    public let excludedPaths: Set<String>
    private let onUnauthorized: (@Sendable (String) async -> Void)?

    /// Creates the middleware.
    ///
    /// - Parameter tokenProvider: returns the current token, or `nil` to send the request
    ///   without `Authorization` (signed out).
    public init(tokenProvider: @escaping @Sendable () async throws -> String?) {
        self.init(tokenProvider: tokenProvider, excludedPaths: [], onUnauthorized: nil)
    }

    /// Creates the middleware with excluded paths and a 401 handler.
    ///
    /// - Parameters:
    ///   - tokenProvider: returns the current token, or `nil` when signed out.
    ///   - excludedPaths: paths sent without the token, e.g. `["/login"]`.
    ///   - onUnauthorized: called with the token a request carried when the answer is 401,
    ///     before the answer is handed on.
    public init(
        tokenProvider: @escaping @Sendable () async throws -> String?,
        excludedPaths: Set<String>,
        onUnauthorized: (@Sendable (String) async -> Void)?
    ) {
        self.tokenProvider = tokenProvider
        self.excludedPaths = excludedPaths
        self.onUnauthorized = onUnauthorized
    }

    /// Adds the token, unless the request already carries an `Authorization` field or goes to
    /// an excluded path; reports a 401 answer to a request that carried the token.
    ///
    /// - Throws: what the token provider throws, or what the rest of the chain throws.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        next: @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        guard request.headerFields[.authorization] == nil, !isExcluded(request),
              let token = try await tokenProvider()
        else {
            return try await next(request, body)
        }
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        let (response, data) = try await next(request, body)
        if response.status == .unauthorized, let onUnauthorized {
            await onUnauthorized(token)
        }
        return (response, data)
    }

    private func isExcluded(_ request: HTTPRequest) -> Bool {
        guard !excludedPaths.isEmpty else { return false }
        let full = request.path ?? "/"
        let path = full.firstIndex(of: "?").map { String(full[..<$0]) } ?? full
        return excludedPaths.contains(path)
    }
}
