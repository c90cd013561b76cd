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
/// let admins = try await intranet.users.list().filter { $0.role == .admin }
/// let org = try await intranet.people.org()   // walk it: org.roots[0].reports[0].manager
/// let me = try await intranet.session.me()
/// ```
///
/// For a tool that stays signed in between runs, keep the session in a file per server and
/// sign requests with a registered app's key:
///
/// ```swift
/// let configuration = IntranetClientConfiguration(
///     sessionStore: FileSessionStore(serverURL: server),
///     signingKey: AppSigningKey(appID: "cli", secret: secret))
/// let intranet = IntranetClient(baseURL: server, configuration: configuration)
/// ```
public struct IntranetClient: Sendable {
    /// The API version every request asks for (`Accept-Version`).
    public let apiVersion: APIVersion
    /// The format of bodies each way: JSON, or Spearal (smaller, and partial updates are
    /// partial objects). Every call works the same in either.
    public let format: WireFormat
    /// The request pieces every repository shares (transport with middleware, coders,
    /// paging names), for endpoints of your own.
    public let restClient: RESTClient
    /// The announcements of the intranet.
    public let announcements: AnnouncementsRepository
    /// Signing in and out, who is signed in (``SessionRepository/me()``), the sign-in state
    /// and its changes; a login's token is sent with every later request.
    public let session: SessionRepository
    /// The accounts, for admins (`/users`).
    public let users: UsersRepository
    /// The staff directory and org chart (`/people`, `/org`).
    public let people: PeopleRepository
    /// One search over people and announcements (`/search`); ``search(_:groups:page:pageSize:)``
    /// is the short way to it.
    public let searchRepository: SearchRepository
    /// Imports from other systems, for admins (`/imports/…`).
    public let imports: ImportsRepository
    /// Acknowledgements ("I have read and understood", queued while offline) and the editors'
    /// reach reports; ``acknowledge(_:round:)`` is the short way to one.
    public let acknowledgements: AcknowledgementsRepository
    /// The files attached to announcements (3.0): list, describe, upload with progress,
    /// rename, alternative text, reorder, remove (editors), and download to a file.
    public let attachments: AttachmentsRepository
    /// Builds the live stream's requests.
    let liveStream: LiveStreamRequests

    /// Creates a client talking to a server over `URLSession`.
    ///
    /// - Parameters:
    ///   - baseURL: the server, e.g. `http://127.0.0.1:8080`; a path is kept.
    ///   - apiVersion: the API version to ask for (the latest by default).
    ///   - format: the body format each way (JSON by default).
    ///   - configuration: session store, authentication, signing, retries, logging, time-out.
    ///     Signatures cover the base URL's path as well.
    public init(
        baseURL: URL,
        apiVersion: APIVersion = .latest,
        format: WireFormat = .json,
        configuration: IntranetClientConfiguration = IntranetClientConfiguration()
    ) {
        let transport = URLSessionTransport(configuration: .init(
            baseURL: baseURL, timeout: configuration.timeout,
            cachePolicy: configuration.cachePolicy))
        var configuration = configuration
        configuration.logBaseURL = configuration.logBaseURL ?? baseURL
        configuration.storeScope = configuration.storeScope ?? baseURL.absoluteString
        self.init(
            transport: transport, apiVersion: apiVersion, format: format, configuration: configuration,
            signingPathPrefix: IntranetRequestSigner.pathPrefix(for: baseURL))
    }

    /// Creates a client over any transport, e.g. a `MockTransport` in tests.
    ///
    /// - Parameters:
    ///   - transport: the transport that finally sends each request.
    ///   - apiVersion: the API version to ask for (the latest by default).
    ///   - format: the body format each way (JSON by default).
    ///   - configuration: session store, authentication, signing, retries, logging.
    ///     Signatures cover the paths as the transport receives them (no base path).
    public init(
        transport: any Transport,
        apiVersion: APIVersion = .latest,
        format: WireFormat = .json,
        configuration: IntranetClientConfiguration = IntranetClientConfiguration()
    ) {
        self.init(transport: transport, apiVersion: apiVersion, format: format, configuration: configuration, signingPathPrefix: "")
    }

    /// Creates a client over a transport whose base URL has a path, so signatures cover it
    /// (a tool wrapping a `URLSessionTransport` of its own, for instance).
    ///
    /// - Parameters:
    ///   - transport: the transport that finally sends each request.
    ///   - apiVersion: the API version to ask for.
    ///   - format: the body format each way.
    ///   - configuration: session store, authentication, signing, retries, logging.
    ///   - signingPathPrefix: the base URL's percent-encoded path, e.g. from
    ///     ``IntranetRequestSigner/pathPrefix(for:)``.
    public init(
        transport: any Transport, apiVersion: APIVersion, format: WireFormat = .json,
        configuration: IntranetClientConfiguration, signingPathPrefix: String
    ) {
        self.apiVersion = apiVersion
        self.format = format
        let credentials = CredentialStore(store: configuration.sessionStore)
        let middleware = configuration.middleware(
            for: apiVersion, credentials: credentials, signingPathPrefix: signingPathPrefix)
        let chain = MiddlewareTransport(transport, middleware: middleware)
        liveStream = LiveStreamRequests(
            transport: (transport as? URLSessionTransport) ?? configuration.liveStreamBaseURL.map { URLSessionTransport(baseURL: $0) },
            middleware: middleware.filter { !($0 is LoggingMiddleware) })
        var client = RESTClient(transport: chain, coder: format.bodyCoder)
        client.responseObserver = configuration.responseObserver
        if let store = configuration.responseStore {
            let tokenProvider = configuration.tokenProvider
            client.caching = ResponseCaching(
                store: store, policy: configuration.storePolicy,
                scope: configuration.storeScope ?? "default",
                selection: "API \(apiVersion.rawValue), \(format.rawValue)",
                partition: {
                    if let tokenProvider {
                        return StorePartition.of(token: try? await tokenProvider())
                    }
                    guard await credentials.currentToken() != nil else { return StorePartition.anonymous }
                    return StorePartition.of(await credentials.session)
                })
        }
        restClient = client
        announcements = AnnouncementsRepository(client: client, apiVersion: apiVersion)
        session = SessionRepository(client: client, credentials: credentials)
        users = UsersRepository(client: client)
        people = PeopleRepository(client: client)
        searchRepository = SearchRepository(client: client)
        imports = ImportsRepository(client: client)
        acknowledgements = AcknowledgementsRepository(client: client, announcements: announcements)
        attachments = AttachmentsRepository(client: client)
    }

    /// Acknowledges announcement `id` for the signed-in user: confirmed by the server, or, with
    /// a response store and no server to reach, queued and sent later
    /// (``AcknowledgementsRepository``).
    ///
    /// - Throws: a `RepositoryError`: `notFound` when the user may not read it, `conflict` when
    ///   it asks for no acknowledgement.
    ///
    /// - Parameters:
    ///   - id: the announcement's id.
    ///   - round: the round the user read (`Announcement.acknowledgement?.round`), so that a
    ///     confirmation of an older text is refused; `nil` for the current one.
    @discardableResult
    public func acknowledge(_ id: Int, round: Int? = nil) async throws -> AcknowledgementsRepository.Outcome {
        try await acknowledgements.acknowledge(id, round: round)
    }

    /// The server's live stream of changes (`GET /events`): what changed among the
    /// announcements and people this user may read, as it happens, reconnecting by itself and
    /// resuming where it left off (``LiveChanges``).
    ///
    /// Needs a client made with a base URL (``init(baseURL:apiVersion:format:configuration:)``),
    /// or ``IntranetClientConfiguration/liveStreamBaseURL``: a client over another transport
    /// without it throws `RepositoryError.transport` when iterated.
    ///
    /// - Parameters:
    ///   - lastEventID: the ``LiveChange/eventID`` of the last change handled, to resume after
    ///     it (changes missed since then come first); `nil` for changes from now on.
    ///   - reconnection: how long to wait between attempts while the server is away.
    public func changes(resumingAfter lastEventID: String? = nil, reconnection: LiveChanges.Reconnection = .init()) -> LiveChanges {
        LiveChanges(prepare: liveStream.prepare, resumingAfter: lastEventID, reconnection: reconnection)
    }

    /// Searches people and announcements (`GET /search`): the best people, then the best
    /// announcements this user may read, each with the snippet that shows why it matched.
    ///
    /// - Parameters:
    ///   - text: what to look for; the last word matches as a beginning unless the text ends in
    ///     a space; `"quoted words"` match as a phrase.
    ///   - groups: which groups to search (the other is `nil`).
    ///   - page: the 1-based page of each group.
    ///   - pageSize: results per group and page (1–50).
    /// - Throws: a `RepositoryError`: `badRequest` for a blank or too long text.
    public func search(
        _ text: String, groups: SearchRepository.Groups = .both, page: Int = 1, pageSize: Int = 10
    ) async throws -> SearchResults {
        try await searchRepository.search(text, groups: groups, page: page, pageSize: pageSize)
    }
}

extension WireFormat {
    /// The SDK's coder for this format: the API's JSON dates, or Spearal.
    var bodyCoder: any BodyCoder {
        switch self {
        case .json: JSONBodyCoder(makeEncoder: { IntranetJSON.encoder() }, makeDecoder: { IntranetJSON.decoder() })
        case .spearal: SpearalBodyCoder()
        }
    }
}
