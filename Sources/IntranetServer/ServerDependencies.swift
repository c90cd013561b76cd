import Hummingbird
import IntranetHTML
import Logging
import SQLKit
import ServiceLifecycle

/// Everything the routes depend on, made once per server from its configuration and its opened
/// database: the change pipeline and what listens to it (the response cache, remembered
/// sessions, the people search), the repositories, the services that run beside the HTTP
/// server, and what records each exchange. ``buildRouter(_:)`` adds the routes over them.
struct ServerDependencies {
    let configuration: AppConfiguration
    let logger: Logger
    let database: DatabaseService
    /// Where every change travels.
    let changes: ChangePipeline
    let cache: ResponseCache
    let announcements: FluentAnnouncementRepository
    let people: FluentPersonRepository
    let accounts: SessionRememberingAccountRepository
    let auth: AuthService
    let hasher: PasswordHasher
    let sanitizer: HTMLSanitizer
    let templates: WebTemplates
    let metrics: ServerMetrics?
    /// Records every answered request, on either path; ``buildRouter(_:)`` gives it route names.
    let recorder: ExchangeRecorder
    /// On PostgreSQL, what keeps this instance's memory right.
    let changeFeed: ChangeFeed?
    let peopleSearch: PeopleSearchIndex
    /// The announcements' search index in memory.
    let searchMemory: AnnouncementSearchMemory
    /// Readers' acknowledgements.
    let acknowledgements: AcknowledgementStore
    /// Readers' acknowledgements answered on the event loop.
    let earlyAcknowledgements: EarlyAcknowledgements
    /// Counts distinct readers who opened each announcement.
    let opens: OpenCounter
    /// Hands the change log to live streams.
    let events: EventHub
    /// Announcements' attached files.
    let attachments: AttachmentStore
    /// What runs beside the HTTP server, stopped in reverse order (the database last).
    let services: [any Service]

    /// - Throws: when the web templates cannot be loaded.
    init(configuration: AppConfiguration, database: DatabaseService, logger: Logger) async throws {
        self.configuration = configuration
        self.logger = logger
        self.database = database
        // What this instance remembers (answers, sessions, the people search) is trusted for
        // ever on SQLite, and while the change feed vouches for it on PostgreSQL (ChangeFeed
        // explains the bound). Every write, here or elsewhere, reaches them through the pipeline.
        let trust: ChangeTrust = database.isShared ? .fed() : .always()
        changes = ChangePipeline(database: database.database, trust: trust, now: configuration.now)
        metrics = configuration.metricsToken.map { _ in
            ServerMetrics(poolSize: database.isShared ? configuration.databasePoolSize : 1, poolUse: database.poolUse)
        }
        let grantsDatabase = database.database
        cache = ResponseCache(
            limits: configuration.answerCacheLimits, changes: changes,
            grants: { try await FluentAnnouncementRepository.readerGrants(on: grantsDatabase) },
            placement: { try await FluentAnnouncementRepository.placement(of: $0, on: grantsDatabase) },
            schedule: { try await FluentAnnouncementRepository.nextVisibilityChange(after: $0, on: grantsDatabase) },
            now: configuration.now, metrics: metrics)
        accounts = SessionRememberingAccountRepository(
            base: FluentAccountRepository(database: database.database, changes: changes),
            recheckInterval: configuration.sessionRecheckInterval, trust: trust, metrics: metrics)
        changes.add(accounts)
        var services: [any Service] = [database]
        if !database.isShared {
            // Other processes on the same file (the command-line tools) write beside the server:
            // their writes from now on count, whatever this instance remembers is read later.
            changes.start(from: try await ChangeRevisions.read(on: database.database))
            services.append(RevisionWatcher(database: database.database, changes: changes, work: database.backgroundWork, logger: logger))
        }
        if let connection = database.postgresConnection, case .postgres(_, let schema) = configuration.storage {
            let feed = ChangeFeed(
                configuration: connection, eventLoop: database.eventLoop, schema: schema, trust: trust,
                stalenessBound: .init(configuration.stalenessBound), logger: logger, onChange: changes.receive)
            services.append(feed)
            changeFeed = feed
        } else {
            changeFeed = nil
        }
        peopleSearch = PeopleSearchIndex(database: database.database, changes: changes, logger: logger, work: database.backgroundWork)
        services.append(peopleSearch)
        opens = OpenCounter(database: database.database, changes: changes, work: database.backgroundWork, logger: logger)
        try await opens.loadKey()
        services.append(opens)
        acknowledgements = AcknowledgementStore(database: database.database, changes: changes, now: configuration.now)
        earlyAcknowledgements = EarlyAcknowledgements(store: acknowledgements, sessions: accounts, cache: cache, now: configuration.now)
        searchMemory = AnnouncementSearchMemory(database: database.database, changes: changes, logger: logger, work: database.backgroundWork)
        changes.add(searchMemory)
        services.append(searchMemory)
        announcements = FluentAnnouncementRepository(
            database: database.database, changes: changes, now: configuration.now, searchMemory: searchMemory)
        people = FluentPersonRepository(database: database.database, changes: changes, now: configuration.now, searchIndex: peopleSearch)
        hasher = PasswordHasher(cost: configuration.passwordCost)
        sanitizer = HTMLSanitizer(embedHosts: configuration.embedHosts)
        templates = try await WebTemplates.load()
        var auth = AuthService(accounts: accounts, hasher: hasher, sessionLifetime: configuration.sessionLifetime, now: configuration.now)
        auth.metrics = metrics
        self.auth = auth
        events = EventHub(
            database: database.database, cache: cache, people: people, auth: auth, work: database.backgroundWork,
            now: configuration.now, logger: logger)
        changes.add(events)
        attachments = AttachmentStore(
            database: database.database, changes: changes, blobs: DatabaseBlobStore(),
            images: ImageProcessor(maxPixels: configuration.attachmentMaxPixels), maxBytes: configuration.attachmentMaxBytes,
            quotaBytes: configuration.attachmentQuotaBytes, now: configuration.now)
        let cleaner = StoredFileCleaner(
            database: database.database, blobs: attachments.blobs, work: database.backgroundWork, now: configuration.now, logger: logger)
        services += [events, cleaner]
        if case .sqliteFile(let path) = configuration.storage, let sql = database.database as? any SQLDatabase {
            // The checkpointer moves the log beside the server's one connection (WALCheckpointer).
            try await sql.raw("PRAGMA wal_autocheckpoint = 0").run()
            services.append(WALCheckpointer(path: path, logger: logger))
        }
        self.services = services
        recorder = ExchangeRecorder(
            accessLog: configuration.accessLog.map { AccessLog(format: $0, output: configuration.accessLogOutput) }, metrics: metrics)
    }
}
