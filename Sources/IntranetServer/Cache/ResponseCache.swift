import NIOConcurrencyHelpers

/// Encoded answers of the read routes, so a read costs a lookup instead of a query and an
/// encoding (DESIGN.md, Speed).
///
/// Two kinds of entries share one history: the routes' own entries, keyed by what the route
/// decided (version, kind of caller, query), and whole public answers keyed by the request as it
/// came off the socket (``PublicAnswerKey``), which ``PublicAnswerHandler`` serves without
/// entering the application.
///
/// Correctness rules:
/// - Every write drops every entry once it has committed (``invalidate()``), before the write's
///   response is sent, so a client never reads its own write stale.
/// - A read that began before a write cannot store what it read after the write dropped the
///   cache: ``store(_:for:ifStillAt:)`` compares the generation the read started at.
/// - When other server instances share the database, the cache is trusted only while ``trust``
///   says so (``ChangeFeed`` keeps it trusted and drops entries as other instances' writes are
///   announced). While it is not, public answers are not served and each route read first
///   compares the database's revision counter (``synchronize(withDatabaseRevision:)``), so a
///   write made elsewhere is seen at once.
final class ResponseCache: Sendable {
    /// A point in the cache's history; entries read at an older generation are not stored.
    struct Generation: Equatable, Sendable {
        fileprivate let value: UInt64
    }

    private struct State {
        var generation: UInt64 = 0
        var databaseRevision: Int64?
        var entries: [String: CachedResponse] = [:]
        var publicAnswers: [PublicAnswerKey: PublicAnswer] = [:]
        var bodyBytes = 0
        var publicAnswerHits = 0

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            publicAnswers.removeAll(keepingCapacity: true)
            bodyBytes = 0
        }

        /// Makes room for an entry of `size` body bytes that replaces one of `replacedSize` bytes
        /// (`nil`: a new entry), starting over when full.
        mutating func makeRoom(forEntryOf size: Int, replacing replacedSize: Int?, capacity: Int, byteBudget: Int) {
            bodyBytes -= replacedSize ?? 0
            if (replacedSize == nil && entries.count + publicAnswers.count >= capacity) || bodyBytes + size > byteBudget {
                removeAll()
            }
            bodyBytes += size
        }
    }

    /// Most entries kept; query strings are client-controlled, so the cache must not grow without
    /// bound. Past this, the cache starts over.
    let capacity: Int
    /// Most body bytes kept over all entries; past this, the cache starts over. An entry larger
    /// than this is not kept at all.
    let byteBudget: Int
    /// Whether entries may be used without asking the database first.
    let trust: ChangeTrust
    private let state = NIOLockedValueBox(State())

    /// Counts hits and misses, when metrics are on.
    private let metrics: ServerMetrics?

    init(capacity: Int = 2_000, byteBudget: Int = 64 << 20, trust: ChangeTrust = .always(), metrics: ServerMetrics? = nil) {
        self.capacity = capacity
        self.byteBudget = byteBudget
        self.trust = trust
        self.metrics = metrics
    }

    /// Whether a route must compare the database's revision (``synchronize(withDatabaseRevision:)``)
    /// before using an entry: when other instances share the database and no live change feed
    /// vouches for the entries.
    var needsRevisionCheck: Bool { !trust.isTrusted }

    /// The entry for `key` and the generation to store a fresh one under.
    func lookup(_ key: String) -> (entry: CachedResponse?, generation: Generation) {
        let found = state.withLockedValue { state in
            (state.entries[key], Generation(value: state.generation))
        }
        metrics?.routeCacheLookup(hit: found.0 != nil)
        return found
    }

    /// Stores an entry built from data read at `generation`, unless a write came since.
    func store(_ entry: CachedResponse, for key: String, ifStillAt generation: Generation) {
        state.withLockedValue { state in
            guard state.generation == generation.value, entry.body.readableBytes <= byteBudget else { return }
            state.makeRoom(
                forEntryOf: entry.body.readableBytes, replacing: state.entries[key]?.body.readableBytes,
                capacity: capacity, byteBudget: byteBudget)
            state.entries[key] = entry
        }
    }

    /// The public answer for a request, and the generation to store a fresh one under; never an
    /// answer while the entries are not trusted (the application then checks the database).
    func publicAnswer(for key: PublicAnswerKey) -> (answer: PublicAnswer?, generation: Generation) {
        let isTrusted = trust.isTrusted
        let found = state.withLockedValue { state in
            guard isTrusted else { return (PublicAnswer?.none, Generation(value: state.generation)) }
            let answer = state.publicAnswers[key]
            if answer != nil { state.publicAnswerHits += 1 }
            return (answer, Generation(value: state.generation))
        }
        metrics?.earlyAnswerLookup(hit: found.0 != nil)
        return found
    }

    /// The current generation, for a request whose answer may be stored later.
    var generation: Generation {
        state.withLockedValue { Generation(value: $0.generation) }
    }

    /// Stores a public answer built from data read at `generation`, unless a write came since.
    func storePublicAnswer(_ answer: PublicAnswer, for key: PublicAnswerKey, ifStillAt generation: Generation) {
        state.withLockedValue { state in
            guard state.generation == generation.value, answer.body.readableBytes <= byteBudget else { return }
            state.makeRoom(
                forEntryOf: answer.body.readableBytes, replacing: state.publicAnswers[key]?.body.readableBytes,
                capacity: capacity, byteBudget: byteBudget)
            state.publicAnswers[key] = answer
        }
    }

    /// Drops every entry; called after each committed write.
    func invalidate() {
        state.withLockedValue { state in
            state.generation &+= 1
            state.removeAll()
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
            state.removeAll()
        }
    }

    /// The number of entries held, of both kinds (for tests and diagnostics).
    var count: Int {
        state.withLockedValue { $0.entries.count + $0.publicAnswers.count }
    }

    /// How many requests were answered from a public answer (for tests and diagnostics).
    var publicAnswerHits: Int {
        state.withLockedValue { $0.publicAnswerHits }
    }
}

extension ResponseCache {
    /// The cached answer for `key`, or a fresh one built and cached.
    ///
    /// Where this instance's memory is not trusted on its own (PostgreSQL without a live
    /// change feed), the database's revision is read first and a newer one empties the cache.
    /// An answer built while a write happened is not kept.
    ///
    /// - Parameters:
    ///   - key: what tells this answer from every other.
    ///   - revision: reads the database's revision.
    ///   - build: builds the answer.
    func answer(
        for key: String, revision: () async throws -> Int64, build: () async throws -> CachedResponse
    ) async throws -> CachedResponse {
        if needsRevisionCheck {
            synchronize(withDatabaseRevision: try await revision())
        }
        let (entry, generation) = lookup(key)
        if let entry { return entry }
        let fresh = try await build()
        store(fresh, for: key, ifStillAt: generation)
        return fresh
    }
}
