import Foundation
import HTTPTypes
import IntranetAPI
import Logging
import RESTRepository
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How an ``IntranetClient`` authenticates, signs, retries and logs.
public struct IntranetClientConfiguration: Sendable {
    /// Returns the token for `Authorization: Bearer`, or `nil` when signed out; by default
    /// the token of the client's last `session.login`.
    public var tokenProvider: (@Sendable () async throws -> String?)?
    /// Adds signature header fields to each request (see API.md, signed requests).
    public var signer: (@Sendable (inout HTTPRequest, Data?) async throws -> Void)?
    /// When to retry idempotent requests; `nil` turns retries off.
    public var retryPolicy: RetryPolicy?
    /// Sleeps between retries; replace it in tests to run without waiting.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Where to log one line per request and response; `nil` (the default) logs nothing.
    public var logger: Logger?
    /// The URL shown in log lines; the base URL by default.
    public var logBaseURL: URL?
    /// Seconds before a request times out.
    public var timeout: TimeInterval
    /// The `URLRequest` cache policy.
    public var cachePolicy: URLRequest.CachePolicy
    /// More header fields for every request.
    public var headerFields: HTTPFields

    /// Creates a configuration; every setting has a default: no token, no signing, three
    /// attempts for idempotent requests, no logging, 30 s time-out.
    public init(
        tokenProvider: (@Sendable () async throws -> String?)? = nil,
        signer: (@Sendable (inout HTTPRequest, Data?) async throws -> Void)? = nil,
        retryPolicy: RetryPolicy? = RetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        logger: Logger? = nil,
        logBaseURL: URL? = nil,
        timeout: TimeInterval = 30,
        cachePolicy: URLRequest.CachePolicy = .reloadIgnoringLocalCacheData,
        headerFields: HTTPFields = [:]
    ) {
        self.tokenProvider = tokenProvider
        self.signer = signer
        self.retryPolicy = retryPolicy
        self.sleep = sleep
        self.logger = logger
        self.logBaseURL = logBaseURL
        self.timeout = timeout
        self.cachePolicy = cachePolicy
        self.headerFields = headerFields
    }

    /// The middleware chain, outermost first: headers, token, retries, signing, logging (so
    /// each attempt is signed afresh and logged).
    func middleware(for version: APIVersion) -> [any TransportMiddleware] {
        var fields = headerFields
        fields[.acceptVersion] = version.rawValue
        if fields[.accept] == nil {
            fields[.accept] = MediaType.json
        }
        var chain: [any TransportMiddleware] = [HeaderFieldsMiddleware(fields)]
        if let tokenProvider {
            chain.append(BearerTokenMiddleware(tokenProvider: tokenProvider))
        }
        if let retryPolicy {
            chain.append(RetryMiddleware(policy: retryPolicy, sleep: sleep))
        }
        if let signer {
            chain.append(RequestSigningMiddleware(sign: signer))
        }
        if let logger {
            chain.append(LoggingMiddleware(logger: logger, baseURL: logBaseURL))
        }
        return chain
    }
}
