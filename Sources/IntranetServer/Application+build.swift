import Hummingbird
import IntranetHTML
import Logging
import ServiceLifecycle
import Synchronization

/// The intranet server: an application ready to `runService()`, plus what tests reach into.
struct IntranetServer {
    var application: Application<ShallowResponder<RouterResponder<AppRequestContext>>>
    var database: DatabaseService
    var cache: ResponseCache
    var routes: [RouteBook<AppRequestContext>.Route]
    /// On PostgreSQL, what keeps this instance's memory right.
    var changeFeed: ChangeFeed?
    /// The directory's search in memory.
    var peopleSearch: PeopleSearchIndex
    /// The announcements' search index in memory.
    var searchMemory: AnnouncementSearchMemory
    /// The announcements.
    var announcements: FluentAnnouncementRepository
    /// Where every change travels.
    var changes: ChangePipeline
    /// The sessions this instance remembers.
    var sessions: SessionRememberingAccountRepository
    /// Hands the change log to live streams.
    var events: EventHub
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
    // Every live stream holds a connection, and so a file, open.
    if let limit = FileLimit.raiseToMaximum() {
        let raised = limit.after > limit.before ? " (raised from \(limit.before))" : ""
        logger.info("open files: up to \(limit.after)\(raised), about as many connections and live streams")
    }
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
///
/// Opens and migrates the database, wires what the routes depend on (``ServerDependencies``),
/// then the router (``buildRouter(_:)``) and the application around it.
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
    logger.info("database: \(configuration.storage.summary); pool: \(database.poolDescription)")
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
    let dependencies: ServerDependencies
    do {
        dependencies = try await ServerDependencies(configuration: configuration, database: database, logger: logger)
    } catch {
        await database.close()
        throw error
    }
    if userCount == 0 {
        logger.notice("No accounts yet. Create the first admin with: intranet-server users create --username admin --role admin")
    }
    let (router, routes, recorder) = buildRouter(dependencies)
    // Signed-out reads, live streams and acknowledgements answered on the event loop must need
    // nothing but their target and headers: not when requests must be signed. On PostgreSQL the
    // cache serves them only while the change feed vouches for it. (A handler per connection: it
    // follows that connection.)
    let answersEarly = !configuration.requiresSignature
    let application = Application(
        responder: ShallowResponder(inner: router.buildResponder()),
        server: .http1(configuration: .init(additionalChannelHandlers: [ContinueHandler()] + (answersEarly ? [
            EventStreamHandler(
                hub: dependencies.events, sessions: dependencies.accounts, allowsAnonymousReading: configuration.allowsAnonymousReading,
                now: configuration.now, recorder: recorder, logger: logger),
            PublicAnswerHandler(
                cache: dependencies.cache, sessions: dependencies.accounts, now: configuration.now, recorder: recorder,
                opens: dependencies.opens, logger: logger),
            AcknowledgementAnswerHandler(lane: dependencies.earlyAcknowledgements, recorder: recorder, logger: logger),
        ] : []))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        services: dependencies.services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    return IntranetServer(
        application: application, database: database, cache: dependencies.cache, routes: routes,
        changeFeed: dependencies.changeFeed, peopleSearch: dependencies.peopleSearch, searchMemory: dependencies.searchMemory,
        announcements: dependencies.announcements, changes: dependencies.changes,
        sessions: dependencies.accounts, events: dependencies.events)
}
