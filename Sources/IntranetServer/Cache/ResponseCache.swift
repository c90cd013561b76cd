import NIOConcurrencyHelpers

/// Encoded answers of the read routes, so a read costs a lookup instead of a query and an
/// encoding (DESIGN.md, Speed).
///
/// Correctness rules:
/// - Every write drops every entry once it has committed (``invalidate()``), before the write's
///   response is sent, so a client never reads its own write stale.
/// - A read that began before a write cannot store what it read after the write dropped the
///   cache: ``store(_:for:ifStillAt:)`` compares the generation the read started at.
/// - When other server instances share the database, each read first compares the database's
///   revision counter (``synchronize(withDatabaseRevision:)``), so a write made elsewhere is
///   seen at once.
final class ResponseCache: Sendable {
    /// A point in the cache's history; entries read at an older generation are not stored.
    struct Generation: Equatable, Sendable {
        fileprivate let value: UInt64
    }

    private struct State {
        var generation: UInt64 = 0
        var databaseRevision: Int64?
        var entries: [String: CachedResponse] = [:]
    }

    /// Most entries kept; query strings are client-controlled, so the cache must not grow without
    /// bound. Past this, the cache starts over.
    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int = 2_000) {
        self.capacity = capacity
    }

    /// The entry for `key` and the generation to store a fresh one under.
    func lookup(_ key: String) -> (entry: CachedResponse?, generation: Generation) {
        state.withLockedValue { state in
            (state.entries[key], Generation(value: state.generation))
        }
    }

    /// Stores an entry built from data read at `generation`, unless a write came since.
    func store(_ entry: CachedResponse, for key: String, ifStillAt generation: Generation) {
        state.withLockedValue { state in
            guard state.generation == generation.value else { return }
            if state.entries.count >= capacity {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[key] = entry
        }
    }

    /// Drops every entry; called after each committed write.
    func invalidate() {
        state.withLockedValue { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// Drops every entry when the database's revision moved past the newest one seen.
    ///
    /// A revision older than one already seen changes nothing: the caller's query runs after
    /// that newer revision was committed, so it reads data at least that new anyway.
    func synchronize(withDatabaseRevision revision: Int64) {
        state.withLockedValue { state in
            if let known = state.databaseRevision, revision <= known { return }
            state.databaseRevision = revision
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// The number of entries held (for tests and diagnostics).
    var count: Int {
        state.withLockedValue { $0.entries.count }
    }
}
