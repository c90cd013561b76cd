import Logging
import SQLKit
import Synchronization
import Testing
@testable import IntranetServer

/// Closing the database waits for work services do on it by themselves (``BackgroundWork``):
/// a connection still leased when the pools shut down stopped a test process with SQLiteNIO's
/// "connection was not closed" assertion.
@Suite("Background database work and closing")
struct BackgroundWorkTests {
    @Test("closing waits for the work under way, then refuses new work")
    func closeWaits() async throws {
        let work = BackgroundWork()
        let (started, startedSink) = AsyncStream<Void>.makeStream()
        let (release, releaseSink) = AsyncStream<Void>.makeStream()
        let running = Task {
            await work.run {
                startedSink.yield()
                for await _ in release { break }
                return 42
            }
        }
        for await _ in started { break }
        let closed = Mutex(false)
        let closing = Task {
            await work.close()
            closed.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(!closed.withLock { $0 }, "close() returned while work was running")
        #expect(work.isClosed, "the work under way can tell it should stop")
        releaseSink.yield()
        #expect(await running.value == 42)
        await closing.value
        #expect(closed.withLock { $0 })
        #expect(await work.run { 1 } == nil, "no work after close")
    }

    @Test("a database closed during a background query lets it finish on an open connection")
    func databaseCloseWaitsForQuery() async throws {
        let database = try DatabaseService(storage: .sqliteInMemory, poolSize: 1, logger: Logger(label: "test"))
        try await database.migrate(seeds: true)
        let sql = try #require(database.database as? any SQLDatabase)
        let (started, startedSink) = AsyncStream<Void>.makeStream()
        let query = Task {
            try await database.backgroundWork.run { () -> Int in
                startedSink.yield()
                try await Task.sleep(for: .milliseconds(200))
                struct Row: Decodable { let count: Int }
                return try await sql.raw("SELECT count(*) AS count FROM people").first(decoding: Row.self)?.count ?? -1
            }
        }
        for await _ in started { break }
        await database.close()
        #expect(try await query.value == 40, "the query ran before the pools shut down")
    }
}
