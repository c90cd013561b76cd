import NIOConcurrencyHelpers

/// Encoded answers of the read routes, so a read costs a lookup instead of a query and an
/// encoding.
///
/// Two kinds of entries share one history: the routes' own entries, keyed by what the route
/// decided (version, kind of caller, query), and whole public answers keyed by the request as it
/// came off the socket (``PublicAnswerKey``), which ``PublicAnswerHandler`` serves without
/// entering the application. Each entry names the ``ChangeDomains`` it was read from.
///
/// Correctness rules:
/// - The cache is a ``ChangeListener`` of the ``ChangePipeline``: every committed write drops
///   the entries that depend on a domain it changed, and only those, before the write's
///   response is sent, so a client never reads its own write stale.
/// - A read that began before a write cannot store what it read after the write dropped the
///   cache: ``store(_:for:dependsOn:ifStillAt:)`` compares the generations of the entry's
///   domains with those the read started at.
/// - When other server instances share the database, the cache is trusted only while the
///   pipeline's ``ChangePipeline/trust`` says so (``ChangeFeed`` keeps it trusted and hands
///   other instances' writes to the pipeline). While it is not, public answers are not served
///   and each route read first has the pipeline compare the database's revisions
///   (``ChangePipeline/catchUp()``), so a write made elsewhere is seen at once.
final class ResponseCache: Sendable {
    /// A point in the cache's history; entries read at an older generation of a domain they
    /// depend on are not stored.
    struct Generation: Equatable, Sendable {
        fileprivate let value: DomainGenerations
    }

    private struct Entry<Value: Sendable>: Sendable {
        var value: Value
        var domains: ChangeDomains
    }

    /// What a route keeps: a whole answer, or the main part of a web page.
    private enum Kept: Sendable {
        case response(CachedResponse)
        case page(PageFragment)

        var size: Int {
            switch self {
            case .response(let response): response.body.readableBytes
            case .page(let fragment): fragment.size
            }
        }
    }

    private struct State {
        var generations = DomainGenerations()
        var entries: [String: Entry<Kept>] = [:]
        var publicAnswers: [PublicAnswerKey: Entry<PublicAnswer>] = [:]
        var bodyBytes = 0
        var publicAnswerHits = 0

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            publicAnswers.removeAll(keepingCapacity: true)
            bodyBytes = 0
        }

        /// Drops the entries that depend on any of `domains`.
        mutating func remove(dependingOn domains: ChangeDomains) {
            entries = entries.filter { _, entry in
                guard entry.domains.isDisjoint(with: domains) else {
                    bodyBytes -= entry.value.size
                    return false
                }
                return true
            }
            publicAnswers = publicAnswers.filter { _, entry in
                guard entry.domains.isDisjoint(with: domains) else {
                    bodyBytes -= entry.value.body.readableBytes
                    return false
                }
                return true
            }
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
    /// Where changes come from, and whether entries may be used without asking the database.
    let changes: ChangePipeline
    private let state = NIOLockedValueBox(State())

    /// Counts hits and misses, when metrics are on.
    private let metrics: ServerMetrics?

    /// Makes a cache and adds it to `changes`' listeners.
    init(capacity: Int = 2_000, byteBudget: Int = 64 << 20, changes: ChangePipeline, metrics: ServerMetrics? = nil) {
        self.capacity = capacity
        self.byteBudget = byteBudget
        self.changes = changes
        self.metrics = metrics
        changes.add(self)
    }

    /// Whether entries may be used without asking the database first.
    var trust: ChangeTrust { changes.trust }

    /// The entry for `key` and the generation to store a fresh one under.
    func lookup(_ key: String) -> (entry: CachedResponse?, generation: Generation) {
        let found = state.withLockedValue { state -> (CachedResponse?, Generation) in
            guard case .response(let response)? = state.entries[key]?.value else { return (nil, Generation(value: state.generations)) }
            return (response, Generation(value: state.generations))
        }
        metrics?.routeCacheLookup(hit: found.0 != nil)
        return found
    }

    /// Stores an entry built from data of `domains` read at `generation`, unless a write to one
    /// of them came since.
    func store(_ entry: CachedResponse, for key: String, dependsOn domains: ChangeDomains, ifStillAt generation: Generation) {
        keep(.response(entry), for: key, dependsOn: domains, ifStillAt: generation)
    }

    private func keep(_ value: Kept, for key: String, dependsOn domains: ChangeDomains, ifStillAt generation: Generation) {
        state.withLockedValue { state in
            guard state.generations.agrees(with: generation.value, on: domains), value.size <= byteBudget else { return }
            state.makeRoom(forEntryOf: value.size, replacing: state.entries[key]?.value.size, capacity: capacity, byteBudget: byteBudget)
            state.entries[key] = Entry(value: value, domains: domains)
        }
    }

    /// The page fragment kept for `key`, or a fresh one built and kept (the rules of
    /// ``answer(for:dependsOn:build:)``).
    func fragment(
        for key: String, dependsOn domains: ChangeDomains, build: () async throws -> PageFragment
    ) async throws -> PageFragment {
        try await changes.catchUp()
        let (found, generation) = state.withLockedValue { state -> (PageFragment?, Generation) in
            guard case .page(let fragment)? = state.entries[key]?.value else { return (nil, Generation(value: state.generations)) }
            return (fragment, Generation(value: state.generations))
        }
        metrics?.routeCacheLookup(hit: found != nil)
        if let found { return found }
        let fresh = try await build()
        keep(.page(fresh), for: key, dependsOn: domains, ifStillAt: generation)
        return fresh
    }

    /// The public answer for a request, and the generation to store a fresh one under; never an
    /// answer while the entries are not trusted (the application then checks the database).
    func publicAnswer(for key: PublicAnswerKey) -> (answer: PublicAnswer?, generation: Generation) {
        let isTrusted = trust.isTrusted
        let found = state.withLockedValue { state in
            guard isTrusted else { return (PublicAnswer?.none, Generation(value: state.generations)) }
            let answer = state.publicAnswers[key]?.value
            if answer != nil { state.publicAnswerHits += 1 }
            return (answer, Generation(value: state.generations))
        }
        metrics?.earlyAnswerLookup(hit: found.0 != nil)
        return found
    }

    /// The current generation, for a request whose answer may be stored later.
    var generation: Generation {
        state.withLockedValue { Generation(value: $0.generations) }
    }

    /// Stores a public answer built from data of `domains` read at `generation`, unless a write
    /// to one of them came since.
    func storePublicAnswer(_ answer: PublicAnswer, for key: PublicAnswerKey, dependsOn domains: ChangeDomains, ifStillAt generation: Generation) {
        state.withLockedValue { state in
            guard state.generations.agrees(with: generation.value, on: domains), answer.body.readableBytes <= byteBudget else { return }
            state.makeRoom(
                forEntryOf: answer.body.readableBytes, replacing: state.publicAnswers[key]?.value.body.readableBytes,
                capacity: capacity, byteBudget: byteBudget)
            state.publicAnswers[key] = Entry(value: answer, domains: domains)
        }
    }

    /// How many entries depend on each set of domains (for tests and diagnostics).
    var entriesByDependency: [ChangeDomains: Int] {
        state.withLockedValue { state in
            var counts: [ChangeDomains: Int] = [:]
            for entry in state.entries.values { counts[entry.domains, default: 0] += 1 }
            for entry in state.publicAnswers.values { counts[entry.domains, default: 0] += 1 }
            return counts
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

extension ResponseCache: ChangeListener {
    /// Drops the entries that depend on a domain the change changed.
    func apply(_ change: Change) {
        state.withLockedValue { state in
            state.generations.advance(change.domains)
            state.remove(dependingOn: change.domains)
        }
    }
}

extension ResponseCache {
    /// The cached answer for `key`, or a fresh one built and cached.
    ///
    /// Where this instance's memory is not trusted on its own (PostgreSQL without a live
    /// change feed), the pipeline compares the database's revisions first, and a domain that
    /// moved drops its entries. An answer built while a write to one of `domains` happened is
    /// not kept.
    ///
    /// - Parameters:
    ///   - key: what tells this answer from every other.
    ///   - domains: the data the answer is read from.
    ///   - build: builds the answer.
    func answer(
        for key: String, dependsOn domains: ChangeDomains, build: () async throws -> CachedResponse
    ) async throws -> CachedResponse {
        try await changes.catchUp()
        let (entry, generation) = lookup(key)
        if let entry { return entry }
        let fresh = try await build()
        store(fresh, for: key, dependsOn: domains, ifStillAt: generation)
        return fresh
    }
}
