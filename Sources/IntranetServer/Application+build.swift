import Hummingbird
import IntranetHTML
import Logging
import ServiceLifecycle
import Synchronization

/// The intranet server: an application ready to `runService()`, plus what tests reach into.
struct IntranetServer {
    var application: Application<RouterResponder<AppRequestContext>>
    var database: DatabaseService
    var cache: ResponseCache
    var routes: [RouteBook<AppRequestContext>.Route]
    /// On PostgreSQL, what keeps this instance's memory right.
    var changeFeed: ChangeFeed?
    /// The directory's search in memory.
    var peopleSearch: PeopleSearchIndex
}

/// Builds the intranet server for a configuration: opens and migrates the database (seeding a
/// new one), then wires the router.
///
/// - Throws: when the database cannot be opened or migrated.
public func buildApplication(_ configuration: AppConfiguration) async throws -> some ApplicationProtocol {
    try await makeServer(configuration).application
}

/// Runs the intranet server for a configuration until SIGTERM or SIGINT, then shuts it down
/// gracefully: the listening socket closes at once, requests in flight are answered (for up
/// to ``AppConfiguration/shutdownGrace``; whatever is left then is cancelled), and the database
/// is closed last.
///
/// - Throws: ``StartupError`` when the database cannot be opened or migrated, or what the
///   server failed with.
public func runServer(_ configuration: AppConfiguration) async throws {
    let server = try await makeServer(configuration)
    let logger = server.application.logger
    let notice = ShutdownNotice(grace: configuration.shutdownGrace, logger: logger)
    // Services shut down in reverse order: the notice first (it only logs), then the
    // application (the listener, the requests in flight, then the database).
    var groupConfiguration = ServiceGroupConfiguration(
        services: [.init(service: server.application), .init(service: notice)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGrace
    defer { LineBuffer.standardOutput.flush() }
    try await ServiceGroup(configuration: groupConfiguration).run()
    if let began = notice.began, ContinuousClock.now - began >= configuration.shutdownGrace {
        logger.warning("stopped: the grace period of \(configuration.shutdownGrace) ended with requests still in flight, and they were cancelled")
    } else {
        logger.info("stopped")
    }
}

/// Logs when a graceful shutdown begins, and remembers when.
private final class ShutdownNotice: Service, Sendable {
    private let grace: Duration
    private let logger: Logger
    private let start = Mutex<ContinuousClock.Instant?>(nil)

    init(grace: Duration, logger: Logger) {
        self.grace = grace
        self.logger = logger
    }

    /// When the shutdown began, if it has.
    var began: ContinuousClock.Instant? { start.withLock { $0 } }

    func run() async throws {
        try? await gracefulShutdown()
        start.withLock { $0 = .now }
        logger.info("shutting down: no new connections; requests in flight have up to \(grace) to finish")
    }
}

/// Builds the server; `onServerRunning` receives the port it listens on (useful with port 0).
func makeServer(
    _ configuration: AppConfiguration,
    logger: Logger? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> IntranetServer {
    let logger = logger ?? {
        var logger = Logger(label: "intranet-server")
        logger.logLevel = configuration.logLevel
        return logger
    }()
    let database = try DatabaseService(storage: configuration.storage, poolSize: configuration.databasePoolSize, logger: logger)
    logger.info("database pool: \(database.poolDescription)")
    // Nothing after this block throws: an opened database must be closed before it is let go.
    let userCount: Int
    do {
        try await database.migrate(seeds: configuration.seedsDatabase)
        userCount = try await FluentAccountRepository(database: database.database).countUsers()
        database.markServing()
    } catch {
        await database.close()
        throw StartupError(storage: configuration.storage, underlying: error)
    }
    let repository = FluentAnnouncementRepository(database: database.database)
    // What this instance remembers (answers, sessions) is trusted for ever on SQLite, and while
    // the change feed vouches for it on PostgreSQL (ChangeFeed explains the bound).
    let trust: ChangeTrust = database.isShared ? .fed() : .always()
    let metrics = configuration.metricsToken.map { _ in
        ServerMetrics(poolSize: database.isShared ? configuration.databasePoolSize : 1, poolUse: database.poolUse)
    }
    let cache = ResponseCache(trust: trust, metrics: metrics)
    let accounts = SessionRememberingAccountRepository(
        base: FluentAccountRepository(database: database.database),
        recheckInterval: configuration.sessionRecheckInterval ?? (database.isShared ? .seconds(60) : .seconds(1)),
        trust: trust)
    var services: [any Service] = [database]
    var changeFeed: ChangeFeed?
    if let connection = database.postgresConnection, case .postgres(_, let schema) = configuration.storage {
        let feed = ChangeFeed(
            configuration: connection, eventLoop: database.eventLoop, schema: schema, trust: trust, stalenessBound: .init(configuration.stalenessBound),
            logger: logger
        ) { change in
            cache.invalidate()
            if change == .accounts { accounts.forgetAll() }
        }
        services.append(feed)
        changeFeed = feed
    }
    let hasher = PasswordHasher(cost: configuration.passwordCost)
    let sanitizer = HTMLSanitizer(embedHosts: configuration.embedHosts)
    let templates: WebTemplates
    do {
        templates = try await WebTemplates.load()
    } catch {
        await database.close()
        throw error
    }
    var auth = AuthService(accounts: accounts, hasher: hasher, sessionLifetime: configuration.sessionLifetime, now: configuration.now)
    auth.metrics = metrics
    if userCount == 0 {
        logger.notice("No accounts yet. Create the first admin with: intranet-server users create --username admin --role admin")
    }
    var serviceRoutes = RouteBook<AppRequestContext>()
    var service = ServiceController(repository: repository)
    if let token = configuration.metricsToken, let metrics {
        let sessionCounter = FluentAccountRepository(database: database.database)
        let now = configuration.now
        service.metricsRoute = .init(token: token, metrics: metrics, activeSessions: { try await sessionCounter.countActiveSessions(now: now()) })
    }
    service.addRoutes(to: &serviceRoutes)
    var announcementRoutes = RouteBook<AppRequestContext>()
    AnnouncementController(
        repository: repository,
        cache: cache,
        sanitizer: sanitizer,
        maxBodySize: configuration.maxBodySize
    ).addRoutes(to: &announcementRoutes)
    let peopleSearch = PeopleSearchIndex(database: database.database, cache: cache, logger: logger, work: database.backgroundWork)
    services.append(peopleSearch)
    let people = FluentPersonRepository(database: database.database, now: configuration.now, searchIndex: peopleSearch)
    SessionController(auth: auth, people: people, maxBodySize: configuration.maxBodySize).addRoutes(to: &announcementRoutes)
    UserController(accounts: accounts, hasher: hasher, cache: cache, maxBodySize: configuration.maxBodySize).addRoutes(to: &announcementRoutes)
    PersonController(
        repository: people, cache: cache,
        revision: { try await repository.currentRevision() }, maxBodySize: configuration.maxBodySize
    ).addRoutes(to: &announcementRoutes)
    ImportController(
        importer: WordPressImporter(database: database.database, sanitizer: sanitizer), cache: cache, metrics: metrics, limit: configuration.importMaxBytes,
        board: ImportProgressBoard(now: configuration.now)
    ).addRoutes(to: &announcementRoutes)

    var webRoutes = RouteBook<AppRequestContext>()
    let web = WebController(
        repository: repository, people: people, accounts: accounts, auth: auth, hasher: hasher, cache: cache, templates: templates,
        sanitizer: sanitizer, maxBodySize: configuration.maxBodySize, secureCookies: configuration.secureCookies)
    web.addRoutes(to: &webRoutes)
    let webRouter = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    webRoutes.register(on: webRouter)

    let books = [serviceRoutes, announcementRoutes]
    let routeTemplate: @Sendable (String) -> String = { path in
        books.lazy.compactMap { $0.template(servingRequestPath: path) }.first ?? "unmatched"
    }
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    let accessLog = configuration.accessLog.map { AccessLog(format: $0, output: configuration.accessLogOutput) }
    router.add(middleware: ProblemMiddleware(maxBodySize: configuration.maxBodySize, accessLog: accessLog, metrics: metrics))
    router.add(middleware: WebMiddleware(
        web: webRoutes, api: books, responder: webRouter.buildResponder(), templates: templates, repository: repository,
        identity: { try await web.identity($0) },
        contentSecurityPolicy: WebMiddleware.contentSecurityPolicy(embedHosts: configuration.embedHosts),
        maxBodySize: configuration.maxBodySize))
    router.add(middleware: UnservedMethodMiddleware(books: books))
    if configuration.requiresSignature {
        router.add(middleware: SignatureMiddleware(
            registry: SigningAppRegistry(database: database.database), maxBodySize: configuration.maxBodySize,
            importMaxBytes: configuration.importMaxBytes))
    }
    router.add(middleware: AuthMiddleware(auth: auth, allowsAnonymousReading: configuration.allowsAnonymousReading))
    serviceRoutes.register(on: router)
    announcementRoutes.register(on: router.group().add(middleware: VersionMiddleware(maxBodySize: configuration.maxBodySize)))

    // Signed-out reads answered on the event loop must need nothing but their target and
    // headers: not when requests must be signed. On PostgreSQL the cache serves them only while
    // the change feed vouches for it.
    let answersPublicReadsEarly = !configuration.requiresSignature
    let application = Application(
        router: router,
        server: .http1(configuration: .init(additionalChannelHandlers: answersPublicReadsEarly ? [PublicAnswerHandler(
        cache: cache, sessions: accounts, now: configuration.now, accessLog: accessLog,
        metrics: metrics.map { metrics in (metrics, routeTemplate) }, logger: logger)] : [])),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    return IntranetServer(application: application, database: database, cache: cache, routes: serviceRoutes.routes + announcementRoutes.routes,
        changeFeed: changeFeed, peopleSearch: peopleSearch)
}
