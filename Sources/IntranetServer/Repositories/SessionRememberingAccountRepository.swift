import Foundation
import IntranetAPI
import NIOConcurrencyHelpers

/// An ``AccountRepository`` that remembers the sessions it found for a while
/// (``recheckInterval``), so a signed-in client's stream of requests costs one session query
/// per interval instead of one each.
///
/// Correctness rules:
/// - It is a ``ChangeListener`` of the ``ChangePipeline`` every account write goes through: a
///   logout, a user changed or deleted forgets that account's remembered sessions once the
///   change committed, before its caller answers, so a revoked token fails at once. A lookup
///   that began before such a change cannot remember what it read (the same generation rule as
///   ``ResponseCache``).
/// - A session is never used past its expiry.
/// - Changes made around it, by another process on the same SQLite file (`intranet-server users
///   delete` beside a running server), are seen within ``recheckInterval`` (a second there).
/// - On a shared PostgreSQL database, remembered sessions are used only while ``trust`` holds:
///   ``ChangeFeed`` hands the pipeline every change to users or sessions made anywhere (which
///   names no account, so every session is forgotten), so another instance's logout or role
///   change counts within the feed's staleness bound;
///   without a live feed every lookup asks the database.
final class SessionRememberingAccountRepository: AccountRepository {
    /// A session as found by one database lookup: two lookups of the same session are told apart
    /// by when they were made.
    struct Remembered: Equatable, Sendable {
        var session: ActiveSession
        var checkedAt: ContinuousClock.Instant
    }

    private struct State {
        var generation: UInt64 = 0
        var sessions: [String: Remembered] = [:]
    }

    let base: any AccountRepository
    /// How long a session found in the database is trusted before it is looked up again.
    let recheckInterval: Duration
    /// Most sessions remembered; past this, it starts over.
    let capacity: Int
    /// Whether remembered sessions may be used at all.
    let trust: ChangeTrust
    private let state = NIOLockedValueBox(State())

    init(
        base: any AccountRepository, recheckInterval: Duration = .seconds(1), capacity: Int = 10_000,
        trust: ChangeTrust = .always()
    ) {
        self.base = base
        self.recheckInterval = recheckInterval
        self.capacity = capacity
        self.trust = trust
    }

    func session(tokenHash: String, now: Date) async throws -> ActiveSession? {
        guard trust.isTrusted else { return try await base.session(tokenHash: tokenHash, now: now) }
        let lookedUpAt = ContinuousClock.now
        let (remembered, generation) = state.withLockedValue { ($0.sessions[tokenHash], $0.generation) }
        if let remembered, isUsable(remembered, at: lookedUpAt, now: now) {
            return remembered.session
        }
        let found = try await base.session(tokenHash: tokenHash, now: now)
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            guard let found else {
                state.sessions[tokenHash] = nil
                return
            }
            if state.sessions[tokenHash] == nil, state.sessions.count >= capacity {
                state.sessions.removeAll(keepingCapacity: true)
            }
            state.sessions[tokenHash] = Remembered(session: found, checkedAt: lookedUpAt)
        }
        return found
    }

    /// The session remembered for a token when ``session(tokenHash:now:)`` would use it without
    /// asking the database (trusted, checked within ``recheckInterval``, not expired); never asks
    /// the database. The event loop's early answers use it.
    func rememberedSession(tokenHash: String, now: Date) -> Remembered? {
        guard trust.isTrusted else { return nil }
        let lookedUpAt = ContinuousClock.now
        return state.withLockedValue { state in
            guard let remembered = state.sessions[tokenHash], isUsable(remembered, at: lookedUpAt, now: now) else { return nil }
            return remembered
        }
    }

    /// Whether a remembered session may be used without asking the database: checked within
    /// ``recheckInterval`` and not expired.
    private func isUsable(_ remembered: Remembered, at instant: ContinuousClock.Instant, now: Date) -> Bool {
        instant - remembered.checkedAt < recheckInterval && remembered.session.expiresAt > now
    }

    /// Forgets every remembered session.
    func forgetAll() {
        forget(accounts: nil)
    }

    /// Forgets the remembered sessions of `accounts` (of every account when `nil`).
    func forget(accounts: Set<Int>?) {
        state.withLockedValue { state in
            state.generation &+= 1
            if let accounts {
                state.sessions = state.sessions.filter { !accounts.contains($0.value.session.user.id) }
            } else {
                state.sessions.removeAll(keepingCapacity: true)
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
    /// Forgets the sessions of the accounts a change touched (every session for a change made
    /// elsewhere, which names none).
    func apply(_ change: Change) {
        guard let accounts = change.accounts else { return forgetAll() }
        if !accounts.isEmpty { forget(accounts: accounts) }
    }
}
