import Foundation
import Logging
import NIOPosix
import ServiceLifecycle
import VaporCSQLite

/// Moves SQLite's write-ahead log into the database file on a connection of its own, once a
/// second, so that no request waits for it; and once an hour refreshes the query planner's
/// statistics.
///
/// By default the connection that commits past 1,000 pages of log copies them into the database
/// file and syncs it inside that commit: the request that happens to commit then (say, after a
/// 100 MB upload) waits for 100 MB more to be written (measured: 0.8 s of a 1.1 s upload). The
/// server's connection turns that off (`PRAGMA wal_autocheckpoint = 0`) and this service does
/// the same copy beside it: a passive checkpoint never blocks the server's reads or writes, and
/// copies what no reader still needs. At shutdown it runs once more.
final class WALCheckpointer: Service, Sendable {
    static let interval = Duration.seconds(1)

    private let path: String
    private let logger: Logger

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    func run() async throws {
        var handle: OpaquePointer?
        guard sqlite_nio_sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            logger.warning("cannot open \(path) to move its write-ahead log: the log grows until the server stops")
            sqlite_nio_sqlite3_close_v2(handle)
            return
        }
        let connection = Connection(handle: handle)
        defer { sqlite_nio_sqlite3_close_v2(handle) }
        var ticks = 0
        while (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: Self.interval) })) != nil {
            await checkpoint(connection)
            ticks += 1
            if ticks % Self.optimizeEvery == 0 { await optimize(connection) }
        }
        await checkpoint(connection)
    }

    private func checkpoint(_ connection: Connection) async {
        let result = try? await NIOThreadPool.singleton.runIfActive {
            sqlite_nio_sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
        if let result, result != SQLITE_OK && result != SQLITE_BUSY {
            logger.warning("moving the write-ahead log into \(path) failed (SQLite code \(result)); trying again in a second")
        }
    }

    /// How many checkpoints apart the query planner's statistics are refreshed: once an hour.
    static let optimizeEvery = 3600

    /// Refreshes the announcements' statistics for the query planner (see
    /// ``DatabaseService/optimize()``). It writes them, so it gives up while another write
    /// runs and tries again an hour later.
    private func optimize(_ connection: Connection) async {
        _ = try? await NIOThreadPool.singleton.runIfActive {
            sqlite_nio_sqlite3_exec(connection.handle, DatabaseService.analyzeAnnouncements.joined(separator: "; "), nil, nil, nil)
        }
    }

    /// The service's own connection, used on one thread at a time (the loop awaits each step).
    private struct Connection: @unchecked Sendable {
        let handle: OpaquePointer
    }
}
