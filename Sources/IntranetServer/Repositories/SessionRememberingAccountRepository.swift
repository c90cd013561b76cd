import Foundation
import IntranetAPI
import NIOConcurrencyHelpers

/// An ``AccountRepository`` that remembers the sessions it found, so a signed-in client's
/// requests cost a dictionary lookup instead of a session query each.
///
/// Correctness rules:
/// - It is a ``ChangeListener`` of the ``ChangePipeline`` every account write goes through: a
///   logout, a user changed or deleted forgets that account's remembered sessions once the
///   change committed, before its caller answers, so a revoked token fails at once. A lookup
///   that began before such a change cannot remember what it read (the same generation rule as
///   ``ResponseCache``).
/// - A session is never used past its expiry, checked in memory at each use.
/// - Changes made around it reach it through the pipeline too: on SQLite, another process's
///   writes to the same file (`intranet-server users delete` beside a running server) are
///   found by ``RevisionWatcher`` within its interval (a second; such a change names no account,
///   so every session is forgotten); on a shared PostgreSQL database, ``ChangeFeed`` hands the
///   pipeline every change to users or sessions made anywhere, naming the account when its
///   trigger does (``NameChangedAccounts``), and remembered sessions are used only while
///   ``trust`` holds; without a live feed every lookup asks the database.
/// - ``recheckInterval``, when set, also looks a session up again once it is that old.
/// - At most ``limits`` sessions are remembered, the rarely used let go first
///   (``BoundedCache``); concurrent first requests of one session share one lookup.
final class SessionRememberingAccountRepository: AccountRepository {
    /// A session as found by one database lookup: two lookups of the same session are told apart
    /// by when they were made.
    struct Remembered: Equatable, Sendable {
        var session: ActiveSession
        var checkedAt: ContinuousClock.Instant
    }

    private struct State {
        var generation: UInt64 = 0
        var sessions: BoundedCache<String, Remembered>
        /// The tokens remembered for each account, so forgetting one account's sessions does not
        /// scan them all (tokens let go since stay until the account is forgotten or the index
        /// is rebuilt, past twice the entry limit).
        var tokensByAccount: [Int: Set<String>] = [:]
        var indexedTokens = 0

        mutating func remember(_ remembered: Remembered, for tokenHash: String, size: Int) {
            sessions.set(remembered, for: tokenHash, size: size)
            if tokensByAccount[remembered.session.user.id, default: []].insert(tokenHash).inserted { indexedTokens += 1 }
            if indexedTokens > 2 * sessions.limits.entries { reindex() }
        }

        mutating func forget(account: Int) {
            for tokenHash in tokensByAccount.removeValue(forKey: account) ?? [] {
                indexedTokens -= 1
                if sessions.peek(tokenHash)?.session.user.id == account { sessions.remove(tokenHash) }
            }
        }

        private mutating func reindex() {
            tokensByAccount = [:]
            for (tokenHash, remembered) in sessions.allEntries {
                tokensByAccount[remembered.session.user.id, default: []].insert(tokenHash)
            }
            indexedTokens = sessions.count
        }
        /// Lookups under way, so that concurrent requests of one session wait for one; each
        /// numbered, so a lookup ending removes itself only.
        var lookups: [String: (number: UInt64, task: Task<ActiveSession?, any Error>)] = [:]
        var nextLookup: UInt64 = 0
    }

    let base: any AccountRepository
    /// How long a session found in the database is used before it is looked up again; `nil`:
    /// until it expires or a change forgets it.
    let recheckInterval: Duration?
    /// Most sessions remembered (and their estimated bytes).
    let limits: CacheLimits
    /// Whether remembered sessions may be used at all.
    let trust: ChangeTrust
    /// Counts hits and misses, when metrics are on.
    private let metrics: ServerMetrics?
    private let state: NIOLockedValueBox<State>

    /// The bytes a remembered session is counted as: its strings and about as much again.
    private static func size(of session: ActiveSession) -> Int {
        256 + session.user.username.utf8.count + session.user.displayName.utf8.count
    }

    init(
        base: any AccountRepository, recheckInterval: Duration? = nil,
        limits: CacheLimits = .init(entries: 100_000, bytes: 64 << 20), trust: ChangeTrust = .always(),
        metrics: ServerMetrics? = nil
    ) {
        self.base = base
        self.recheckInterval = recheckInterval
        self.limits = limits
        self.trust = trust
        self.metrics = metrics
        state = NIOLockedValueBox(State(sessions: BoundedCache(limits: limits)))
    }

    func session(tokenHash: String, now: Date) async throws -> ActiveSession? {
        guard trust.isTrusted else { return try await base.session(tokenHash: tokenHash, now: now) }
        let lookedUpAt = ContinuousClock.now
        let (remembered, lookup) = state.withLockedValue { state -> (ActiveSession?, Task<ActiveSession?, any Error>?) in
            if let remembered = state.sessions.value(for: tokenHash), isUsable(remembered, at: lookedUpAt, now: now) {
                return (remembered.session, nil)
            }
            if let lookup = state.lookups[tokenHash] { return (nil, lookup.task) }
            let generation = state.generation
            state.nextLookup &+= 1
            let number = state.nextLookup
            let lookup = Task {
                try await self.lookUp(tokenHash: tokenHash, now: now, at: lookedUpAt, generation: generation, number: number)
            }
            state.lookups[tokenHash] = (number, lookup)
            return (nil, lookup)
        }
        metrics?.cacheLookup(.sessions, hit: remembered != nil)
        if let remembered { return remembered }
        guard let found = try await lookup!.value else { return nil }
        // A lookup shared with another request may have started a moment earlier.
        return found.expiresAt > now ? found : nil
    }

    /// The sessions of many tokens at once: those remembered from memory, the others read in one
    /// query and remembered (under the rule of ``session(tokenHash:now:)``: not when a change
    /// came during the read). The batches of ``EarlyAcknowledgements`` use it.
    func sessions(tokenHashes: [String], now: Date) async throws -> [String: ActiveSession] {
        guard trust.isTrusted else { return try await base.sessions(tokenHashes: tokenHashes, now: now) }
        let lookedUpAt = ContinuousClock.now
        var found: [String: ActiveSession] = [:]
        var missing: [String] = []
        let generation = state.withLockedValue { state in
            for tokenHash in Set(tokenHashes) {
                if let remembered = state.sessions.value(for: tokenHash), isUsable(remembered, at: lookedUpAt, now: now) {
                    found[tokenHash] = remembered.session
                } else {
                    missing.append(tokenHash)
                }
            }
            return state.generation
        }
        for _ in 0..<found.count { metrics?.cacheLookup(.sessions, hit: true) }
        guard !missing.isEmpty else { return found }
        for _ in missing { metrics?.cacheLookup(.sessions, hit: false) }
        let read = try await base.sessions(tokenHashes: missing, now: now)
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            for tokenHash in missing {
                if let session = read[tokenHash] {
                    state.remember(Remembered(session: session, checkedAt: lookedUpAt), for: tokenHash, size: Self.size(of: session))
                } else {
                    state.sessions.remove(tokenHash)
                }
            }
        }
        return found.merging(read) { remembered, _ in remembered }
    }

    /// Reads the session from the database and remembers it, unless a change came since
    /// `generation`.
    private func lookUp(
        tokenHash: String, now: Date, at lookedUpAt: ContinuousClock.Instant, generation: UInt64, number: UInt64
    ) async throws -> ActiveSession? {
        let result: Result<ActiveSession?, any Error>
        do {
            result = .success(try await base.session(tokenHash: tokenHash, now: now))
        } catch {
            result = .failure(error)
        }
        state.withLockedValue { state in
            if state.lookups[tokenHash]?.number == number { state.lookups[tokenHash] = nil }
            guard state.generation == generation, case .success(let found) = result else { return }
            if let found {
                state.remember(Remembered(session: found, checkedAt: lookedUpAt), for: tokenHash, size: Self.size(of: found))
            } else {
                state.sessions.remove(tokenHash)
            }
        }
        return try result.get()
    }

    /// The session remembered for a token when ``session(tokenHash:now:)`` would use it without
    /// asking the database (trusted, not expired, and within ``recheckInterval`` when set);
    /// never asks the database. The event loop's early answers use it.
    func rememberedSession(tokenHash: String, now: Date) -> Remembered? {
        guard trust.isTrusted else { return nil }
        let lookedUpAt = ContinuousClock.now
        return state.withLockedValue { state in
            guard let remembered = state.sessions.value(for: tokenHash), isUsable(remembered, at: lookedUpAt, now: now) else { return nil }
            return remembered
        }
    }

    /// Whether a remembered session may be used without asking the database: not expired, and
    /// checked within ``recheckInterval`` when there is one.
    private func isUsable(_ remembered: Remembered, at instant: ContinuousClock.Instant, now: Date) -> Bool {
        guard remembered.session.expiresAt > now else { return false }
        guard let recheckInterval else { return true }
        return instant - remembered.checkedAt < recheckInterval
    }

    /// The remembered sessions' size and history (for `/metrics`).
    var report: CacheReport {
        state.withLockedValue { state in
            CacheReport(name: "sessions", entries: state.sessions.count, bytes: state.sessions.bytes, evictions: state.sessions.evictions, limits: limits)
        }
    }

    /// Forgets every remembered session.
    func forgetAll() {
        forget(accounts: nil)
    }

    /// Forgets the remembered sessions of `accounts` (of every account when `nil`), and lets no
    /// lookup under way remember what it read.
    func forget(accounts: Set<Int>?) {
        state.withLockedValue { state in
            state.generation &+= 1
            state.lookups.removeAll()
            if let accounts {
                for account in accounts { state.forget(account: account) }
            } else {
                state.sessions.removeAll()
                state.tokensByAccount = [:]
                state.indexedTokens = 0
            }
        }
    }

    // Reads and changes pass straight through: the base's changes reach ``apply(_:)``.

    func updateUser(id: Int, changes: UserChanges) async throws -> StoredUser {
        try await base.updateUser(id: id, changes: changes)
    }

    func deleteUser(id: Int) async throws {
        try await base.deleteUser(id: id)
    }

    func deleteSession(tokenHash: String) async throws {
        try await base.deleteSession(tokenHash: tokenHash)
    }

    func countUsers() async throws -> Int { try await base.countUsers() }
    func users() async throws -> [StoredUser] { try await base.users() }
    func user(id: Int) async throws -> StoredUser? { try await base.user(id: id) }
    func user(username: String) async throws -> StoredUser? { try await base.user(username: username) }

    func createUser(username: String, displayName: String, role: UserRole, passwordHash: String) async throws -> StoredUser {
        try await base.createUser(username: username, displayName: displayName, role: role, passwordHash: passwordHash)
    }

    func createSession(userID: Int, tokenHash: String, expiresAt: Date) async throws {
        try await base.createSession(userID: userID, tokenHash: tokenHash, expiresAt: expiresAt)
    }

    func failures(usernameKey: String, since: Date) async throws -> [Date] {
        try await base.failures(usernameKey: usernameKey, since: since)
    }

    func recordFailure(usernameKey: String, at date: Date) async throws {
        try await base.recordFailure(usernameKey: usernameKey, at: date)
    }

    func clearFailures(usernameKey: String, olderThan before: Date) async throws {
        try await base.clearFailures(usernameKey: usernameKey, olderThan: before)
    }
}

extension SessionRememberingAccountRepository: ChangeListener {
    /// Forgets the sessions of the accounts a change touched (every session for a change to
    /// accounts that names none).
    func apply(_ change: Change) {
        guard let accounts = change.accounts else { return forgetAll() }
        if !accounts.isEmpty { forget(accounts: accounts) }
    }
}
