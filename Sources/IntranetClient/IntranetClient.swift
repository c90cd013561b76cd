import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository

/// The intranet SDK's entry point: one client per server and API version.
///
/// ```swift
/// let intranet = IntranetClient(baseURL: URL(string: "http://127.0.0.1:8080")!, apiVersion: .v2_0)
/// let page = try await intranet.announcements.read(page: 1, pageSize: 20)
/// try await intranet.session.login(username: "editor", password: "…")  // later calls send the token
/// ```
public struct IntranetClient: Sendable {
    /// The API version every request asks for (`Accept-Version`).
    public let apiVersion: APIVersion
    /// The shared request pieces, for custom endpoints.
    public let client: RESTClient
    /// The announcements of the intranet.
    public let announcements: AnnouncementsRepository
    /// Signing in and out; a login's token is sent with every later request.
    public let session: SessionRepository
    /// The signed-in user (`/users/me`).
    public let me: CurrentUserRepository
    /// The session token store behind ``session`` (unused when the configuration brings its
    /// own token provider).
    public let credentials: CredentialStore

    /// Creates a client talking to a server over `URLSession`.
    ///
    /// - Parameters:
    ///   - baseURL: the server, e.g. `http://127.0.0.1:8080`; a path is kept.
    ///   - apiVersion: the API version to ask for (the latest by default).
    ///   - configuration: authentication, signing, retries, logging, time-out.
    public init(
        baseURL: URL,
        apiVersion: APIVersion = .latest,
        configuration: IntranetClientConfiguration = IntranetClientConfiguration()
    ) {
        let transport = URLSessionTransport(configuration: .init(
            baseURL: baseURL, timeout: configuration.timeout,
            cachePolicy: configuration.cachePolicy))
        var configuration = configuration
        configuration.logBaseURL = configuration.logBaseURL ?? baseURL
        self.init(transport: transport, apiVersion: apiVersion, configuration: configuration)
    }

    /// Creates a client over any transport, e.g. a `MockTransport` in tests.
    ///
    /// - Parameters:
    ///   - transport: the transport that finally sends each request.
    ///   - apiVersion: the API version to ask for (the latest by default).
    ///   - configuration: authentication, signing, retries, logging.
    public init(
        transport: any Transport,
        apiVersion: APIVersion = .latest,
        configuration: IntranetClientConfiguration = IntranetClientConfiguration()
    ) {
        self.apiVersion = apiVersion
        let credentials = CredentialStore()
        var configuration = configuration
        if configuration.tokenProvider == nil {
            configuration.tokenProvider = { await credentials.token }
        }
        let chain = MiddlewareTransport(transport, middleware: configuration.middleware(for: apiVersion))
        self.credentials = credentials
        client = RESTClient(
            transport: chain,
            makeEncoder: { IntranetJSON.encoder() },
            makeDecoder: { IntranetJSON.decoder() })
        announcements = AnnouncementsRepository(client: client, apiVersion: apiVersion)
        session = SessionRepository(client: client, credentials: credentials)
        me = CurrentUserRepository(client: client)
    }
}
