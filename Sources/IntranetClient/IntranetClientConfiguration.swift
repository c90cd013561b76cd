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
    /// Where the client keeps its session (in memory by default; a ``FileSessionStore`` for
    /// tools that stay signed in between runs).
    public var sessionStore: any SessionStore
    /// Returns the token for `Authorization: Bearer`, or `nil` when signed out. When set, it
    /// replaces the client's own session: ``sessionStore`` is then only written by
    /// `session.login` and not read for requests.
    public var tokenProvider: (@Sendable () async throws -> String?)?
    /// The registered app's id and secret: when set, every request is signed (docs/api.md, "Signed requests").
    public var signingKey: AppSigningKey?
    /// Adds signature header fields to each request; wins over ``signingKey`` when both are set.
    public var signer: (@Sendable (inout HTTPRequest, Data?) async throws -> Void)?
    /// When to retry idempotent requests; `nil` turns retries off. The default,
    /// `RetryPolicy()`, retries `GET`, `PUT`, `DELETE` twice on 503 and 429 (honouring
    /// `Retry-After`) and never when no response came, so a dead network fails at once.
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
    /// Where answers are kept for reading offline and revalidating cheaply; `nil` (the
    /// default) keeps nothing. Answers are filed per signed-in user, and signing out forgets
    /// that user's answers.
    public var responseStore: ResponseStore?
    /// Where `GET` answers come from when ``responseStore`` is set (`networkFirst` by
    /// default); override it per call with `StorePolicy.$current`.
    public var storePolicy: StorePolicy
    /// What tells this client's answers apart in a store shared with clients of other
    /// servers: the base URL by default (a client made over a bare transport: `default`).
    /// Answers of other API versions or formats are never served; a write forgets what it
    /// changed for all of them.
    public var storeScope: String?
    /// Called with every successful answer a call returns, with its request, wherever it came
    /// from (its `origin`): for a "last updated" label, or to record raw bodies.
    public var responseObserver: (@Sendable (RESTRequest, RESTResponse) async -> Void)?
    /// The server the live stream (``IntranetClient/changes(resumingAfter:reconnection:)``)
    /// connects to, for a client made over a transport of its own (a client made with a base
    /// URL uses it); `nil`: that client has no live stream.
    public var liveStreamBaseURL: URL?

    /// Creates a configuration; every setting has a default: a session in memory, no signing,
    /// up to three attempts for idempotent requests answered 503 or 429 (none after a
    /// transport failure), no logging, 30 s time-out.
    ///
    /// - Parameters:
    ///   - tokenProvider: a token source replacing the client's own session.
    ///   - signer: a signing function (see ``IntranetRequestSigner``).
    ///   - retryPolicy: when to retry idempotent requests; `nil` for never.
    ///   - sleep: waits between retries.
    ///   - logger: where request and response lines go (secrets redacted, bodies never logged).
    ///   - logBaseURL: the URL shown in log lines.
    ///   - timeout: seconds before a request times out.
    ///   - cachePolicy: the `URLRequest` cache policy.
    ///   - headerFields: more header fields for every request.
    ///   - sessionStore: where the session is kept.
    ///   - signingKey: an app's id and secret to sign every request with.
    ///   - responseStore: where answers are kept for reading offline (none by default).
    ///   - storePolicy: where `GET` answers come from when there is a store.
    ///   - storeScope: what tells this client's answers apart in a shared store.
    ///   - responseObserver: called with every successful answer and its request.
    public init(
        tokenProvider: (@Sendable () async throws -> String?)? = nil,
        signer: (@Sendable (inout HTTPRequest, Data?) async throws -> Void)? = nil,
        retryPolicy: RetryPolicy? = RetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        logger: Logger? = nil,
        logBaseURL: URL? = nil,
        timeout: TimeInterval = 30,
        cachePolicy: URLRequest.CachePolicy = .reloadIgnoringLocalCacheData,
        headerFields: HTTPFields = [:],
        sessionStore: any SessionStore = InMemorySessionStore(),
        signingKey: AppSigningKey? = nil,
        responseStore: ResponseStore? = nil,
        storePolicy: StorePolicy = .networkFirst,
        storeScope: String? = nil,
        responseObserver: (@Sendable (RESTRequest, RESTResponse) async -> Void)? = nil
    ) {
        self.responseStore = responseStore
        self.storePolicy = storePolicy
        self.storeScope = storeScope
        self.responseObserver = responseObserver
        self.sessionStore = sessionStore
        self.signingKey = signingKey
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
    /// each attempt is signed afresh and logged). `/login` never carries a token; a 401 to a
    /// request that carried the session's token signs out.
    func middleware(
        for version: APIVersion, credentials: CredentialStore, signingPathPrefix: String
    ) -> [any TransportMiddleware] {
        var fields = headerFields
        fields[.acceptVersion] = version.rawValue
        if fields[.accept] == nil {
            fields[.accept] = MediaType.json
        }
        var chain: [any TransportMiddleware] = [HeaderFieldsMiddleware(fields)]
        if let tokenProvider {
            chain.append(BearerTokenMiddleware(tokenProvider: tokenProvider, excludedPaths: ["/login"], onUnauthorized: nil))
        } else {
            chain.append(BearerTokenMiddleware(
                tokenProvider: { await credentials.currentToken() }, excludedPaths: ["/login"],
                onUnauthorized: { token in await credentials.clear(ifToken: token) }))
        }
        if let retryPolicy {
            chain.append(RetryMiddleware(policy: retryPolicy, sleep: sleep))
        }
        if let signer {
            chain.append(RequestSigningMiddleware(sign: signer))
        } else if let signingKey {
            let signer = IntranetRequestSigner(key: signingKey, pathPrefix: signingPathPrefix)
            chain.append(RequestSigningMiddleware(sign: signer.sign))
        }
        if let logger {
            chain.append(LoggingMiddleware(logger: logger, baseURL: logBaseURL))
        }
        return chain
    }
}
