import FluentKit
import Logging
import SQLKit
import ServiceLifecycle
import Synchronization

/// The directory's search in memory: a ``PeopleSearchSnapshot`` of everyone's search text and
/// sort orders, kept as long as cached people answers would be, so `GET /people?q=`
/// finds a page and its exact count without asking the database to count thousands of rows —
/// for texts of every length, one and two letters included, which no trigram index can help.
///
/// Freshness is the directory's generation in the ``ChangePipeline``: a snapshot is used only at
/// the generation of ``ChangeDomain/people`` it was read at, and every committed write to
/// people, every such change the change feed announces and every newer people revision a read
/// finds moves it on — and nothing else does (an announcement's write leaves it in place).
/// Callers ask for ``current()`` where they would use a cached answer, after the pipeline
/// caught up with the database when its memory is not trusted on its own. A stale snapshot is never searched:
/// the caller then searches the database (its indexes remain) while this service reads a new
/// snapshot in the background, one at a time. Directories above ``maxPeople`` people or
/// ``maxBytes`` of search text are always searched in the database.
///
/// A page found in memory takes its order and count from the snapshot and its people from the
/// database as they are now (each checked to still match); the two can differ only inside the
/// window in which a cached answer could be stale too.
final class PeopleSearchIndex: Service, Sendable {
    /// The most people held in memory (about 150 bytes each, and four bytes per sort).
    static let maxPeople = 500_000
    /// The most bytes of search text held in memory (a person's can reach a few kilobytes).
    static let maxBytes = 256 << 20

    private struct State {
        var snapshot: PeopleSearchSnapshot?
        /// The generation at which the directory was found too large to hold.
        var declined: UInt64?
        var answers = 0
        /// Whether the last read failed: while the database stays away, only the first failure
        /// is a warning.
        var isFailing = false
    }

    private let database: any Database
    private let changes: ChangePipeline
    private let logger: Logger
    private let state = Mutex(State())
    private let requests: AsyncStream<Void>
    private let requestContinuation: AsyncStream<Void>.Continuation
    /// Rows read per query while a snapshot is read: few enough that requests waiting for
    /// SQLite's one connection pass between the queries.
    let chunkSize: Int

    /// Where the reads run, so that closing the database waits for one under way.
    private let work: BackgroundWork

    init(database: any Database, changes: ChangePipeline, logger: Logger, work: BackgroundWork = BackgroundWork(), chunkSize: Int = 2_000) {
        self.database = database
        self.work = work
        self.changes = changes
        self.logger = logger
        self.chunkSize = chunkSize
        (requests, requestContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The snapshot to search, when it was read at the directory's current generation; otherwise
    /// `nil`, and a new one is asked for.
    func current() -> PeopleSearchSnapshot? {
        current(asking: true)
    }

    private func current(asking: Bool) -> PeopleSearchSnapshot? {
        let generation = currentGeneration
        let (snapshot, declined) = state.withLock { ($0.snapshot, $0.declined) }
        if let snapshot, snapshot.generation == generation { return snapshot }
        if asking, declined != generation { requestContinuation.yield() }
        return nil
    }

    /// Whether an answer found in `snapshot` may be given: whether the snapshot is still what
    /// the directory's current generation would read. Counts the answers given.
    func confirm(_ snapshot: PeopleSearchSnapshot) -> Bool {
        guard snapshot.generation == currentGeneration else { return false }
        state.withLock { $0.answers += 1 }
        return true
    }

    /// The directory's generation now.
    private var currentGeneration: UInt64 { changes.generations[.people] }

    /// How many searches were answered from memory (for tests and diagnostics).
    var answers: Int { state.withLock { $0.answers } }

    /// Whether a current snapshot is held (for tests and diagnostics; asks for none).
    var isReady: Bool { current(asking: false) != nil }

    /// Reads a snapshot at once, then again as they are asked for, until the application shuts
    /// down (before the database closes: services stop in reverse order).
    func run() async throws {
        // On PostgreSQL the change feed sets everything remembered aside as it goes live: read
        // after that (waiting at most five seconds for it).
        try? await cancelWhenGracefulShutdown {
            for _ in 0..<50 where !self.changes.trust.isTrusted {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        requestContinuation.yield()
        var pause = Self.firstRetry
        var retry: Task<Void, Never>?
        for await _ in requests.cancelOnGracefulShutdown() {
            guard await refresh() else {
                pause = Self.firstRetry
                continue
            }
            // A write came while reading (at start, the change feed going live is one): try again
            // rather than wait for the next search, but less and less often while writes keep
            // coming (an import, a directory sync), so that reads of the whole directory do not
            // keep taking the database from requests. A search asking meanwhile is served at once.
            retry?.cancel()
            retry = Task { [requestContinuation, pause] in
                guard (try? await Task.sleep(for: pause)) != nil else { return }
                requestContinuation.yield()
            }
            pause = min(pause * 2, Self.lastRetry)
        }
        retry?.cancel()
    }

    /// The pause before reading again after a write overtook a read, unless a search asks
    /// first; it doubles after each overtaken read, up to ``lastRetry``.
    static let firstRetry = Duration.milliseconds(250)
    /// The longest pause between two reads overtaken by writes.
    static let lastRetry = Duration.seconds(16)

    /// Reads a snapshot at the directory's current generation, unless one is held already. Gives up
    /// as soon as the generation moves on (a write came: what is being read is stale already),
    /// and when the directory is larger than ``maxPeople`` or its texts than ``maxBytes``.
    ///
    /// - Returns: whether a write overtook the read, so that no snapshot is current.
    @discardableResult
    func refresh() async -> Bool {
        let generation = currentGeneration
        _ = await work.run { await read() }
        return currentGeneration != generation && !isReady
    }

    private func read() async {
        let generation = currentGeneration
        let isNeeded = state.withLock { state in
            guard state.snapshot?.generation != generation else { return false }
            state.snapshot = nil  // stale: no use keeping its memory while the next is read
            return true
        }
        guard isNeeded, let sql = database as? any SQLDatabase else { return }
        let started = ContinuousClock.now
        do {
            let count = try await PersonModel.query(on: database).count()
            guard count <= Self.maxPeople else {
                decline(at: generation, "\(count) people, more than \(Self.maxPeople)")
                return
            }
            var people: [(id: Int, searchKey: String)] = []
            people.reserveCapacity(count)
            var bytes = 0
            guard try await read(column: "search_key", orderedBy: nil, at: generation, on: sql, { id, key in
                bytes += key.utf8.count + 1
                people.append((id, key))
                return bytes <= Self.maxBytes
            }) else {
                if bytes > Self.maxBytes { decline(at: generation, "search texts of more than \(Self.maxBytes >> 20) MiB") }
                return
            }
            var orders: [PersonListRequest.SortKey: [Int]] = [:]
            for key in PersonListRequest.SortKey.allCases where key != .id {
                var order: [Int] = []
                order.reserveCapacity(count)
                guard try await read(column: key.column, orderedBy: key.column, at: generation, on: sql, { id, _ in
                    order.append(id)
                    return true
                }) else { return }
                orders[key] = order
            }
            guard let snapshot = PeopleSearchSnapshot(generation: generation, people: people, orders: orders) else {
                logger.debug("people search: the directory changed while it was read; it is searched in the database until the next try")
                return
            }
            people = []
            // Kept only while current: a read begun earlier and ended later must not replace a newer one.
            let isKept = state.withLock { state in
                guard currentGeneration == generation else { return false }
                state.snapshot = snapshot
                return true
            }
            if isKept {
                logger.debug("people search: \(snapshot.count) people read into memory in \(ContinuousClock.now - started)")
            }
            state.withLock { $0.isFailing = false }
        } catch {
            let isNew = state.withLock { state in
                defer { state.isFailing = true }
                return !state.isFailing
            }
            logger.log(
                level: isNew ? .warning : .debug, "people search: could not read the directory into memory; searching the database",
                metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    private func decline(at generation: UInt64, _ reason: String) {
        state.withLock { $0.declined = generation }
        logger.notice("people search: \(reason): searched in the database only")
    }

    /// Reads everyone's id and `column`, in the order of `sortColumn` then id (of id when
    /// `nil`), ``chunkSize`` rows at a time from where the last chunk ended, handing each to
    /// `each` until it returns `false`.
    ///
    /// - Returns: whether everyone was read: `false` when `each` stopped it, or between two
    ///   chunks the directory's generation moved past `generation`, the application began to shut
    ///   down or the database to close.
    private func read(
        column: String, orderedBy sortColumn: String?, at generation: UInt64, on sql: any SQLDatabase,
        _ each: (Int, String) -> Bool
    ) async throws -> Bool {
        var last: (id: Int, value: String)?
        while currentGeneration == generation, !work.isClosed, !Task.isShuttingDownGracefully {
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
                guard each(id, value) else { return false }
                last = (id, value)
            }
            if rows.count < chunkSize { return true }
        }
        return false
    }
}
