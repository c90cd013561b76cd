import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import SQLKit
import Testing
@testable import IntranetServer

/// The database connection pool: sized by configuration, logged at start-up, and queueing
/// (never failing) when more requests arrive at once than it has connections.
@Suite("Database pool")
struct DatabasePoolTests {
    @Test("DATABASE_POOL_SIZE sets the pool; 0, negative, garbage or too large are refused naming the setting", arguments: [
        ("12", 12 as Int?), ("1", 1), ("256", 256), ("0", nil), ("-3", nil), ("eight", nil), ("257", nil), ("4.5", nil),
    ])
    func setting(text: String, expected: Int?) throws {
        try expectSetting("DATABASE_POOL_SIZE", text, gives: expected, defaultValue: AppConfiguration.defaultDatabasePoolSize) { $0.databasePoolSize }
    }

    @Test("the start-up log says where the data is, without credentials, and what the pool holds", arguments: TestStorage.all)
    func loggedAtStartUp(storage: TestStorage) async throws {
        let (logger, log) = RecordingLogHandler.logger(level: .info)
        try await withTestServer(storage, logger: logger, configure: { $0.databasePoolSize = 5 }) { _, _ in
            let expected = storage == .sqlite
                ? "database: SQLite in memory; pool: SQLite: one connection (writes are serialised in the process)"
                : "pool: PostgreSQL: 6 connections (3 on each of 2 event loops)"
            #expect(log.all.contains { $0.contains(expected) }, "\(log.all)")
            if storage == .postgres, let url = TestStorage.postgresURL, let user = URLComponents(string: url)?.user {
                #expect(log.all.contains { $0.contains("database: PostgreSQL at ") })
                #expect(!log.all.contains { $0.contains(url) || $0.contains("\(user)@") }, "no URL with credentials in the log")
            }
            #expect(log.all.contains { $0.contains("migrations applied") })
            #expect(!log.all.contains { $0.contains("[Migrator]") || $0.lowercased().contains("prepare") }, "no line per migration step")
        }
    }

    @Test("with one connection, 64 signed-in reads and writes at once all queue and are answered", arguments: TestStorage.all)
    func exhaustionQueues(storage: TestStorage) async throws {
        try await withTestServer(storage, configure: { $0.databasePoolSize = 1 }) { _, client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        if index % 8 == 0 {
                            return try await client.send(.post, "/announcements", json: #"{"title":"Queued \#(index)"}"#).status
                        }
                        return try await client.send(.get, index % 2 == 0 ? "/announcements/2" : "/announcements", as: .reader).status
                    }
                }
                var statuses: [HTTPResponse.Status] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }

            #expect(statuses.count == 64)
            #expect(statuses.filter { $0 == .created }.count == 8)
            #expect(statuses.filter { $0 == .ok }.count == 56)
            #expect(try await client.send(.get, "/announcements").headers[.total] == "14")
        }
    }

    @Test("the pool's use counts an operation holding the only connection and one waiting for it, and keeps the peak", arguments: TestStorage.all)
    func useIsCounted(storage: TestStorage) async throws {
        let service = try DatabaseService(
            storage: storage == .sqlite ? .sqliteInMemory : .postgres(url: try #require(TestStorage.postgresURL)),
            poolSize: 1, logger: Logger(label: "pool-use-test"))
        let database = service.database
        let sql = try #require(database as? any SQLDatabase)
        let release = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await database.transaction { _ in
                for await _ in release.stream { break }
            }
        }
        #expect(await Self.poll { service.poolUse.current == 1 })
        let waiterDone = LockedFlag()
        let waiter = Task {
            try await sql.raw("SELECT 1").run()
            waiterDone.set()
        }
        #expect(await Self.poll { service.poolUse.current == 2 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(!waiterDone.isSet, "the second operation must wait for the only connection")

        release.continuation.yield()
        release.continuation.finish()
        try await holder.value
        try await waiter.value
        #expect(service.poolUse.current == 0)
        #expect(service.poolUse.peak == 2)
        await service.close()
    }

    /// Checks `condition` every 10 ms for up to 10 s.
    private static func poll(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}

/// `STALENESS_BOUND_MS`: how long another instance's write may go unseen on shared PostgreSQL.
@Suite("Staleness bound setting")
struct StalenessBoundSettingTests {
    @Test("STALENESS_BOUND_MS sets the bound; below 50, above 60000, or not whole milliseconds is refused naming the setting", arguments: [
        ("750", Duration.milliseconds(750) as Duration?), ("50", .milliseconds(50)), ("60000", .seconds(60)),
        ("49", nil), ("0", nil), ("-500", nil), ("60001", nil), ("1.5", nil), ("2s", nil),
    ])
    func setting(text: String, expected: Duration?) throws {
        try expectSetting("STALENESS_BOUND_MS", text, gives: expected, defaultValue: .seconds(2)) { $0.stalenessBound }
    }

    @Test("the configured bound is the change feed's, and the start-up log states it",
          .enabled(if: TestStorage.postgresURL != nil, "needs INTRANET_TEST_POSTGRES_URL"))
    func reachesTheFeed() async throws {
        let (logger, log) = RecordingLogHandler.logger(level: .info)
        try await withTestServer(.postgres, mode: .live, logger: logger, configure: { $0.stalenessBound = .milliseconds(750) }) { server, _ in
            #expect(server.changeFeed?.stalenessBound == .milliseconds(750))
            let deadline = ContinuousClock.now + .seconds(15)
            while !log.all.contains(where: { $0.contains("seen here within 750 ms") }) {
                try #require(ContinuousClock.now < deadline, "no change feed line in \(log.all)")
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}

/// `SHUTDOWN_GRACE_SECONDS`: how long requests in flight may finish after SIGTERM.
@Suite("Shutdown grace setting")
struct ShutdownGraceSettingTests {
    @Test("SHUTDOWN_GRACE_SECONDS sets the grace period; negative, above an hour or not a number is refused naming the setting", arguments: [
        ("0", Duration.zero as Duration?), ("2.5", .milliseconds(2500)), ("3600", .seconds(3600)),
        ("-1", nil), ("3601", nil), ("nan", nil), ("inf", nil), ("30s", nil),
    ])
    func setting(text: String, expected: Duration?) throws {
        try expectSetting("SHUTDOWN_GRACE_SECONDS", text, gives: expected, defaultValue: .seconds(30)) { $0.shutdownGrace }
    }
}
