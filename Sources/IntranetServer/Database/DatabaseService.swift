import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ServiceLifecycle
#if canImport(Glibc)
import Glibc

/// The C library's calls whose names methods here would shadow.
private enum SystemCall {
    static func close(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
}
#else
import Darwin

/// The C library's calls whose names methods here would shadow.
private enum SystemCall {
    static func close(_ descriptor: Int32) -> Int32 { Darwin.close(descriptor) }
}
#endif

/// Owns FluentKit's `Databases` for the application's lifetime: opens the configured database,
/// migrates it, and closes it when the application shuts down.
final class DatabaseService: Service, Sendable {
    let databases: Databases
    let storage: AppConfiguration.Storage
    private let threadPool: NIOThreadPool
    private let eventLoopGroup: MultiThreadedEventLoopGroup
    private let logger: Logger
    private let isOpen = NIOLockedValueBox(true)
    /// The descriptor holding a shared `flock` on the SQLite file while a server serves it.
    private let servingMark = NIOLockedValueBox<Int32?>(nil)
    /// The file behind a throwaway database, removed by ``close()``.
    private let temporaryFile: String?

    /// How long a query may wait for a free connection before it fails: long enough that a
    /// burst of requests larger than the pool queues and is answered.
    static let connectionWaitLimit = TimeAmount.seconds(30)

    /// What the pool holds, for the start-up log line.
    let poolDescription: String
    /// How many operations use (or wait for) the pool's connections, for `GET /metrics`.
    let poolUse = PoolUse()
    /// What services do on the database by themselves; ``close()`` waits for it.
    let backgroundWork = BackgroundWork()
    /// On PostgreSQL, how to open a connection of one's own (``ChangeFeed`` listens on one).
    let postgresConnection: PostgresConnection.Configuration?

    /// Opens the database; nothing is read or written until ``migrate(seeds:)``.
    ///
    /// - Parameters:
    ///   - storage: where the data lives.
    ///   - poolSize: PostgreSQL connections in total, spread over the pool's two event loops
    ///     (an odd number is rounded up); SQLite always has one.
    ///   - logger: the server's logger.
    init(storage: AppConfiguration.Storage, poolSize: Int = AppConfiguration.defaultDatabasePoolSize, logger: Logger) throws {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        // SQLite gets one event loop and so one connection: writes are serialised in process
        // and never meet "database is locked".
        let eventLoopGroup: MultiThreadedEventLoopGroup
        let databases: Databases
        var temporaryFile: String?
        var poolDescription = "SQLite: one connection (writes are serialised in the process)"
        var postgresConnection: PostgresConnection.Configuration?
        switch storage {
        case .sqliteFile(let path):
            eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            databases = Databases(threadPool: threadPool, on: eventLoopGroup)
            databases.use(.sqlite(.file(path), connectionPoolTimeout: Self.connectionWaitLimit, sqlLogLevel: .trace), as: .sqlite)
        case .sqliteInMemory:
            // SQLiteKit backs "in-memory" databases with a temporary file it never removes; we
            // name the file ourselves so that closing the service removes it.
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("intranet-\(UUID().uuidString).sqlite").path
            temporaryFile = path
            eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            databases = Databases(threadPool: threadPool, on: eventLoopGroup)
            databases.use(.sqlite(.file(path), connectionPoolTimeout: Self.connectionWaitLimit, sqlLogLevel: .trace), as: .sqlite)
        case .postgres(let url, let schema):
            var configuration: SQLPostgresConfiguration
            do {
                configuration = try SQLPostgresConfiguration(url: url)
            } catch {
                // The parser's error repeats the URL, password included: say what is wrong without it.
                threadPool.shutdownGracefully { _ in }
                throw ConfigurationError(
                    variable: "DATABASE_URL",
                    message: "is not a usable PostgreSQL URL; expected postgres://user:password@host:port/database")
            }
            if let schema {
                configuration.searchPath = [schema]
            }
            postgresConnection = configuration.coreConfiguration
            // FluentKit pools per event loop: the total is spread over (at most) two loops.
            let loops = min(2, max(poolSize, 1))
            let perLoop = (max(poolSize, 1) + loops - 1) / loops
            poolDescription = loops == 1
                ? "PostgreSQL: 1 connection"
                : "PostgreSQL: \(perLoop * loops) connections (\(perLoop) on each of \(loops) event loops)"
            eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: loops)
            databases = Databases(threadPool: threadPool, on: eventLoopGroup)
            databases.use(
                .postgres(
                    configuration: configuration, maxConnectionsPerEventLoop: perLoop,
                    connectionPoolTimeout: Self.connectionWaitLimit, sqlLogLevel: .trace),
                as: .psql)
        }
        self.storage = storage
        self.logger = logger
        self.threadPool = threadPool
        self.eventLoopGroup = eventLoopGroup
        self.databases = databases
        self.temporaryFile = temporaryFile
        self.poolDescription = poolDescription
        self.postgresConnection = postgresConnection
    }

    /// The database handle the repositories use, counting its use of the pool.
    var database: any Database {
        // `database(…)` is nil only for an unregistered id; the id registered in `init` is the default.
        let base = databases.database(logger: logger, on: eventLoopGroup.any())!
        // Both drivers' handles are SQL databases; were one not, it would go uncounted.
        guard let sql = base as? any Database & SQLDatabase else { return base }
        return PoolUseCountingDatabase(base: sql, use: poolUse)
    }

    /// One of the database's own event loops (never the HTTP server's).
    var eventLoop: any EventLoop { eventLoopGroup.any() }

    /// Whether other server instances may share this database.
    var isShared: Bool {
        if case .postgres = storage { return true }
        return false
    }

    /// Tunes SQLite, creates or upgrades the schema, and seeds a database that never was.
    func migrate(seeds: Bool) async throws {
        if case .sqliteFile = storage, let sql = database as? any SQLDatabase {
            try await sql.raw("PRAGMA journal_mode = WAL").run()
            try await sql.raw("PRAGMA synchronous = NORMAL").run()
        }
        let migrations = Migrations()
        migrations.add(CreateAnnouncements())
        migrations.add(AddAccounts())
        // Before the seed, which writes announcements with every column the model has.
        migrations.add(AddPublishing())
        migrations.add(AddAcknowledgementColumns())
        if seeds {
            migrations.add(SeedSampleAnnouncements())
        }
        migrations.add(AddChangeNotifications())
        migrations.add(AddImportSources())
        migrations.add(CreatePeople())
        migrations.add(AddPeopleSearchIndex())
        migrations.add(SplitChangeDomains())
        migrations.add(NameChangedAccounts())
        migrations.add(WatchAudiences())
        // After the sample announcements, which it indexes with the rest.
        migrations.add(AddAnnouncementSearch())
        migrations.add(AddPhoneToPeopleSearch())
        migrations.add(AddAcknowledgements())
        migrations.add(AddChangeLog())
        migrations.add(AddAttachments())
        migrations.add(AddImportMedia())
        migrations.add(AddSearchVisibilityIndex())
        if seeds {
            migrations.add(SeedSamplePeople())
        }
        // Each migration step is an info line of Fluent's: a start shows them with
        // `--log-level debug` only, and says in one line what it did.
        var migrationLogger = logger
        if logger.logLevel > .debug { migrationLogger.logLevel = max(logger.logLevel, .notice) }
        let migrator = Migrator(databases: databases, migrations: migrations, logger: migrationLogger, on: eventLoopGroup.any())
        try await migrator.setupIfNeeded().get()
        let pending = try await migrator.previewPrepareBatch().get().count
        try await migrator.prepareBatch().get()
        if pending > 0 {
            logger.info("database: \(pending) migration\(pending == 1 ? "" : "s") applied")
        }
        try await AddPeopleSearchIndex.ensurePostgresIndex(on: database)
        try await optimize()
    }

    /// On SQLite, gathers the statistics of the announcements' indexes for the query planner
    /// (``analyzeAnnouncements``): without them it looks announcements up in the table rather
    /// than in ``AddSearchVisibilityIndex``'s index, which makes a search matching a third of
    /// 100,000 posts several times slower. Run at start-up and by ``WALCheckpointer`` once an
    /// hour; milliseconds.
    func optimize() async throws {
        guard case .sqliteFile = storage, let sql = database as? any SQLDatabase else { return }
        for statement in Self.analyzeAnnouncements {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }

    /// Statistics of the announcements table's indexes, from a bounded sample of each. Only
    /// that table: statistics of FTS5's own tables lead SQLite to plan the index's internal
    /// queries worse (a rebuild of 100,000 announcements took a quarter longer with them).
    static let analyzeAnnouncements = ["PRAGMA analysis_limit = 1000", "ANALYZE announcements"]

    /// Marks an SQLite file as served by this process until ``close()``: a shared `flock` on
    /// the file (SQLite's own locks are `fcntl` locks, which `flock` does not touch), so that
    /// commands that must not write beside a running server can tell (``isServedElsewhere``).
    func markServing() {
        guard case .sqliteFile(let path) = storage else { return }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        guard flock(descriptor, LOCK_SH) == 0 else {
            _ = SystemCall.close(descriptor)
            return
        }
        servingMark.withLockedValue { $0 = descriptor }
    }

    /// Whether a server (another process, or another service in this one) is serving this
    /// SQLite file; always false for PostgreSQL, whose instances hear of each other's writes.
    var isServedElsewhere: Bool {
        guard case .sqliteFile(let path) = storage else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = SystemCall.close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0
    }

    /// Waits for the application to shut down, then closes the database.
    func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    /// Closes every connection and stops the threads behind them; later calls do nothing.
    /// (FluentKit's pools must be shut down before they are let go: they assert it.)
    func close() async {
        guard isOpen.withLockedValue({ isOpen in defer { isOpen = false }; return isOpen }) else { return }
        await backgroundWork.close()
        if let descriptor = servingMark.withLockedValue({ $0 }) {
            _ = SystemCall.close(descriptor)
        }
        await databases.shutdownAsync()
        try? await threadPool.shutdownGracefully()
        try? await eventLoopGroup.shutdownGracefully()
        if let temporaryFile {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: temporaryFile + suffix)
            }
        }
    }
}
