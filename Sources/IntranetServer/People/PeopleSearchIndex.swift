import FluentKit
import Logging
import SQLKit
import ServiceLifecycle
import Synchronization

/// The directory's search in memory: a ``PeopleSearchSnapshot`` of everyone's search text and
/// sort orders, kept as long as the response cache's entries would be, so `GET /people?q=`
/// finds a page and its exact count without asking the database to count thousands of rows —
/// for texts of every length, one and two letters included, which no trigram index can help.
///
/// Freshness is the response cache's: a snapshot is used only at the cache generation it was
/// read at, and every committed write, every change the change feed announces and every newer
/// database revision a read finds moves the generation on (see ``ResponseCache``). Callers ask
/// for ``current()`` where they would use a cached answer, after the cache synchronised with
/// the database when its memory is not trusted on its own. A stale snapshot is never searched:
/// the caller then searches the database (its indexes remain) while this service reads a new
/// snapshot in the background, one at a time. Directories above ``maxPeople`` are always
/// searched in the database.
final class PeopleSearchIndex: Service, Sendable {
    /// The most people held in memory (about 150 bytes each).
    static let maxPeople = 500_000

    private struct State {
        var snapshot: PeopleSearchSnapshot?
        /// The generation at which the directory was found too large to hold.
        var declined: ResponseCache.Generation?
        var answers = 0
    }

    private let database: any Database
    private let cache: ResponseCache
    private let logger: Logger
    private let state = Mutex(State())
    private let requests: AsyncStream<Void>
    private let requestContinuation: AsyncStream<Void>.Continuation

    init(database: any Database, cache: ResponseCache, logger: Logger) {
        self.database = database
        self.cache = cache
        self.logger = logger
        (requests, requestContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The snapshot to search, when it was read at the cache's current generation; otherwise
    /// `nil`, and a new one is asked for.
    func current() -> PeopleSearchSnapshot? {
        let generation = cache.generation
        let (snapshot, declined) = state.withLock { ($0.snapshot, $0.declined) }
        if let snapshot, snapshot.generation == generation { return snapshot }
        if declined != generation { requestContinuation.yield() }
        return nil
    }

    /// Whether an answer found in `snapshot` may be given: whether the snapshot is still what
    /// the cache's current generation would read. Counts the answers given.
    func confirm(_ snapshot: PeopleSearchSnapshot) -> Bool {
        guard snapshot.generation == cache.generation else { return false }
        state.withLock { $0.answers += 1 }
        return true
    }

    /// How many searches were answered from memory (for tests and diagnostics).
    var answers: Int { state.withLock { $0.answers } }

    /// Reads a snapshot at once, then again as they are asked for, until the application shuts
    /// down (before the database closes: services stop in reverse order).
    func run() async throws {
        await refresh()
        for await _ in requests.cancelOnGracefulShutdown() {
            await refresh()
        }
    }

    /// Reads a snapshot at the cache's current generation, unless one is held already.
    func refresh() async {
        let generation = cache.generation
        guard state.withLock({ $0.snapshot?.generation != generation }) else { return }
        guard let sql = database as? any SQLDatabase else { return }
        let started = ContinuousClock.now
        do {
            let count = try await PersonModel.query(on: database).count()
            guard count <= Self.maxPeople else {
                state.withLock { $0.declined = generation }
                logger.notice("people search: \(count) people, more than \(Self.maxPeople) are searched in the database only")
                return
            }
            var people: [(id: Int, searchKey: String)] = []
            people.reserveCapacity(count)
            try await Self.read(column: "search_key", orderedBy: nil, on: sql) { people.append(($0, $1)) }
            var orders: [PersonListRequest.SortKey: [Int]] = [:]
            for key in PersonListRequest.SortKey.allCases where key != .id {
                var order: [Int] = []
                order.reserveCapacity(count)
                try await Self.read(column: key.column, orderedBy: key.column, on: sql) { id, _ in order.append(id) }
                orders[key] = order
            }
            guard let snapshot = PeopleSearchSnapshot(generation: generation, people: people, orders: orders) else {
                logger.debug("people search: the directory changed while it was read; it is searched in the database until the next try")
                return
            }
            state.withLock { $0.snapshot = snapshot }
            logger.debug("people search: \(snapshot.count) people read into memory in \(ContinuousClock.now - started)")
        } catch {
            logger.warning("people search: could not read the directory into memory; searching the database", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// Rows read per query while a snapshot is read: small enough that the queries of requests
    /// waiting for SQLite's one connection pass between them.
    static let chunkSize = 5_000

    /// Reads everyone's id and `column`, in the order of `sortColumn` then id (of id when
    /// `nil`), a chunk at a time from where the last chunk ended.
    private static func read(
        column: String, orderedBy sortColumn: String?, on sql: any SQLDatabase, _ each: (Int, String) -> Void
    ) async throws {
        var last: (id: Int, value: String)?
        while true {
            let after: SQLQueryString = switch (last, sortColumn) {
            case (nil, _): ""
            case (let last?, nil): "WHERE id > \(bind: last.id)"
            case (let last?, let sortColumn?):
                // The first condition lets the sort column's index find where to start.
                "WHERE \(ident: sortColumn) >= \(bind: last.value) AND (\(ident: sortColumn), id) > (\(bind: last.value), \(bind: last.id))"
            }
            let order: SQLQueryString = sortColumn.map { "ORDER BY \(ident: $0), id" } ?? "ORDER BY id"
            let query: SQLQueryString = "SELECT id, \(ident: column) AS value FROM \(ident: PersonModel.schema) \(after) \(order) LIMIT \(bind: chunkSize)"
            let rows = try await sql.raw(query).all()
            for row in rows {
                let id = try row.decode(column: "id", as: Int.self)
                let value = try row.decode(column: "value", as: String.self)
                each(id, value)
                last = (id, value)
            }
            if rows.count < chunkSize { return }
        }
    }
}
