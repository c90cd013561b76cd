import FluentKit
import Logging
import NIOCore
import SQLKit
import Synchronization

/// How many database operations hold or wait for one of the pool's connections right now,
/// and the most there ever were: what `intranet_database_pool_in_use` and
/// `intranet_database_pool_in_use_peak` report.
///
/// FluentKit's pools do not tell how many connections they have lent, so the count is kept
/// one level up: every operation on the pooled handle (a query, a transaction, a session)
/// takes one connection for as long as it runs, and waits for one while the pool is empty.
/// A count above the pool's size therefore means requests are queueing for connections.
final class PoolUse: Sendable {
    private let counts = Mutex((current: 0, peak: 0))

    /// Operations running or waiting now.
    var current: Int { counts.withLock { $0.current } }

    /// The most operations there were at once since the server started.
    var peak: Int { counts.withLock { $0.peak } }

    func begin() {
        counts.withLock { counts in
            counts.current += 1
            counts.peak = max(counts.peak, counts.current)
        }
    }

    func end() {
        counts.withLock { $0.current -= 1 }
    }

    /// Counts the operation `start` begins until its future completes.
    func track<T>(_ start: () -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        begin()
        return start().always { _ in self.end() }
    }

    /// Counts `operation` while it runs.
    func track<T>(_ operation: () async throws -> T) async rethrows -> T {
        begin()
        defer { end() }
        return try await operation()
    }
}

/// The pooled database handle, counting its operations in a ``PoolUse``; everything else is
/// the wrapped handle's own.
///
/// Work done inside a transaction or a session uses the connection it was given, not this
/// handle, so it is counted once, as the transaction.
struct PoolUseCountingDatabase: Database, SQLDatabase {
    let base: any Database & SQLDatabase
    let use: PoolUse

    // MARK: Database

    var context: DatabaseContext { base.context }
    var inTransaction: Bool { base.inTransaction }

    func execute(query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> Void) -> EventLoopFuture<Void> {
        use.track { base.execute(query: query, onOutput: onOutput) }
    }

    func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> {
        use.track { base.execute(schema: schema) }
    }

    func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> {
        use.track { base.execute(enum: `enum`) }
    }

    func transaction<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        use.track { base.transaction(closure) }
    }

    func withConnection<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        use.track { base.withConnection(closure) }
    }

    // MARK: SQLDatabase

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        use.track { base.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await use.track { try await base.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await use.track { try await base.withSession(closure) }
    }
}
