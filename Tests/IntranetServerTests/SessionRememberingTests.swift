import Foundation
import IntranetAPI
import NIOConcurrencyHelpers
import NIOCore
import Testing
@testable import IntranetServer

/// Accounts in memory, counting session lookups; a hook runs in the middle of a lookup. Its
/// changes reach ``changes`` as the database's would.
final class InMemoryAccounts: AccountRepository {
    let changes = ChangePipeline()
    private let sessions = NIOLockedValueBox<[String: ActiveSession]>([:])
    private let lookupCount = NIOLockedValueBox(0)
    let duringLookup = NIOLockedValueBox<(@Sendable () async throws -> Void)?>(nil)

    static let user = StoredUser(id: 7, username: "ana", displayName: "Ana", role: .reader, passwordHash: "-")

    var lookups: Int { lookupCount.withLockedValue { $0 } }

    func countUsers() async throws -> Int { 1 }
    func users() async throws -> [StoredUser] { [Self.user] }
    func user(id: Int) async throws -> StoredUser? { id == Self.user.id ? Self.user : nil }
    func user(username: String) async throws -> StoredUser? { username == Self.user.username ? Self.user : nil }
    func createUser(username: String, displayName: String, role: UserRole, passwordHash: String) async throws -> StoredUser { Self.user }

    func updateUser(id: Int, changes: UserChanges) async throws -> StoredUser {
        if changes.passwordHash != nil { sessions.withLockedValue { $0.removeAll() } }
        self.changes.committed(Change(domains: .accounts, subjects: [.account(id: id, .changed)]))
        return Self.user
    }

    func deleteUser(id: Int) async throws {
        sessions.withLockedValue { $0.removeAll() }
        changes.committed(Change(domains: .accounts, subjects: [.account(id: id, .deleted)]))
        throw APIError(status: .conflict, detail: "deleted, then failed")
    }

    func createSession(userID: Int, tokenHash: String, expiresAt: Date) async throws {
        sessions.withLockedValue { $0[tokenHash] = ActiveSession(user: Self.user, expiresAt: expiresAt) }
    }

    func session(tokenHash: String, now: Date) async throws -> ActiveSession? {
        lookupCount.withLockedValue { $0 += 1 }
        let found = sessions.withLockedValue { $0[tokenHash] }.flatMap { $0.expiresAt > now ? $0 : nil }
        if let hook = duringLookup.withLockedValue({ $0 }) { try await hook() }
        return found
    }

    func deleteSession(tokenHash: String) async throws {
        let removed = sessions.withLockedValue { $0.removeValue(forKey: tokenHash) }
        if let removed { changes.committed(Change(domains: .accounts, subjects: [.account(id: removed.user.id, .changed)])) }
    }

    func failures(usernameKey: String, since: Date) async throws -> [Date] { [] }
    func recordFailure(usernameKey: String, at: Date) async throws {}
    func clearFailures(usernameKey: String, olderThan before: Date) async throws {}
}

@Suite("Remembered sessions")
struct SessionRememberingTests {
    let base = InMemoryAccounts()
    let now = Date()

    func remembering(for interval: Duration = .seconds(60), capacity: Int = 100) async throws -> SessionRememberingAccountRepository {
        try await base.createSession(userID: 7, tokenHash: "h1", expiresAt: now.addingTimeInterval(3600))
        let accounts = SessionRememberingAccountRepository(
            base: base, recheckInterval: interval, limits: CacheLimits(entries: capacity, bytes: 1 << 20))
        base.changes.add(accounts)
        return accounts
    }

    @Test("fed by the change feed, sessions are remembered only while trusted, and a change announced by another instance forgets them")
    func trustGatesSessions() async throws {
        try await base.createSession(userID: 7, tokenHash: "h1", expiresAt: now.addingTimeInterval(3600))
        let trust = ChangeTrust.fed()
        let accounts = SessionRememberingAccountRepository(base: base, recheckInterval: .seconds(60), trust: trust)
        _ = try await accounts.session(tokenHash: "h1", now: now)
        _ = try await accounts.session(tokenHash: "h1", now: now)
        #expect(base.lookups == 2)  // not trusted: the database every time

        trust.extend(until: NIODeadline.now() + .seconds(60))
        _ = try await accounts.session(tokenHash: "h1", now: now)
        _ = try await accounts.session(tokenHash: "h1", now: now)
        #expect(base.lookups == 3)

        try await base.deleteSession(tokenHash: "h1")  // another instance's logout (this one does not listen to that base)…
        accounts.apply(Change(domains: .accounts, origin: .remote))  // …announced by the feed, naming no account
        #expect(try await accounts.session(tokenHash: "h1", now: now) == nil)

        try await base.createSession(userID: 7, tokenHash: "h2", expiresAt: now.addingTimeInterval(3600))
        _ = try await accounts.session(tokenHash: "h2", now: now)
        trust.revoke()
        try await base.deleteSession(tokenHash: "h2")  // unannounced: the feed is down
        #expect(try await accounts.session(tokenHash: "h2", now: now) == nil)
    }

    @Test("a session found is used again without a query until the recheck interval passes")
    func remembered() async throws {
        let accounts = try await remembering()
        let first = try await accounts.session(tokenHash: "h1", now: now)
        let second = try await accounts.session(tokenHash: "h1", now: now)
        let unknown = try await accounts.session(tokenHash: "nope", now: now)
        let unknownAgain = try await accounts.session(tokenHash: "nope", now: now)

        #expect(first?.user == InMemoryAccounts.user)
        #expect(second == first)
        #expect(unknown == nil && unknownAgain == nil)
        #expect(base.lookups == 3)  // h1 once; unknown tokens are asked for every time

        let everyTime = SessionRememberingAccountRepository(base: base, recheckInterval: .zero)
        _ = try await everyTime.session(tokenHash: "h1", now: now)
        _ = try await everyTime.session(tokenHash: "h1", now: now)
        #expect(base.lookups == 5)
    }

    @Test("concurrent first requests of one session wait for one lookup; of different sessions, one each")
    func oneLookupPerSession() async throws {
        let accounts = try await remembering()
        try await base.createSession(userID: 7, tokenHash: "h2", expiresAt: now.addingTimeInterval(3600))
        base.duringLookup.withLockedValue { $0 = { try await Task.sleep(for: .milliseconds(50)) } }
        let found = try await withThrowingTaskGroup(of: ActiveSession?.self) { group in
            for index in 0..<40 {
                group.addTask { try await accounts.session(tokenHash: index.isMultiple(of: 2) ? "h1" : "h2", now: self.now) }
            }
            return try await group.reduce(into: [ActiveSession?]()) { $0.append($1) }
        }
        #expect(found.count == 40 && found.allSatisfy { $0 != nil })
        #expect(base.lookups == 2)
    }

    @Test("forgetting an account forgets all its remembered sessions, however many came and went")
    func forgettingAnAccount() async throws {
        let accounts = try await remembering(capacity: 2)
        for index in 2...6 { try await base.createSession(userID: 7, tokenHash: "h\(index)", expiresAt: now.addingTimeInterval(3600)) }
        for index in 1...6 { _ = try await accounts.session(tokenHash: "h\(index)", now: now) }
        #expect(accounts.report.entries == 2)
        accounts.forget(accounts: [8])
        #expect(accounts.report.entries == 2)
        accounts.forget(accounts: [7])
        #expect(accounts.report.entries == 0)
    }

    @Test("a remembered session is not used past its expiry")
    func expiry() async throws {
        let accounts = try await remembering()
        _ = try await accounts.session(tokenHash: "h1", now: now)
        let later = try await accounts.session(tokenHash: "h1", now: now.addingTimeInterval(3601))

        #expect(later == nil)
        #expect(base.lookups == 2)
    }

    @Test("a logout, a password change or a deletion through it is felt by the very next lookup, even when the change fails after committing")
    func changesForget() async throws {
        let accounts = try await remembering()
        _ = try await accounts.session(tokenHash: "h1", now: now)
        try await accounts.deleteSession(tokenHash: "h1")
        #expect(try await accounts.session(tokenHash: "h1", now: now) == nil)

        try await base.createSession(userID: 7, tokenHash: "h2", expiresAt: now.addingTimeInterval(3600))
        _ = try await accounts.session(tokenHash: "h2", now: now)
        _ = try await accounts.updateUser(id: 7, changes: UserChanges(passwordHash: "new"))
        #expect(try await accounts.session(tokenHash: "h2", now: now) == nil)

        try await base.createSession(userID: 7, tokenHash: "h3", expiresAt: now.addingTimeInterval(3600))
        _ = try await accounts.session(tokenHash: "h3", now: now)
        await #expect(throws: APIError.self) { try await accounts.deleteUser(id: 7) }
        #expect(try await accounts.session(tokenHash: "h3", now: now) == nil)
    }

    @Test("a lookup that read the session before a logout finished does not remember it")
    func lookupRacingALogout() async throws {
        let accounts = try await remembering()
        base.duringLookup.withLockedValue { hook in
            hook = { try await accounts.deleteSession(tokenHash: "h1") }
        }
        let racing = try await accounts.session(tokenHash: "h1", now: now)
        base.duringLookup.withLockedValue { $0 = nil }
        let after = try await accounts.session(tokenHash: "h1", now: now)

        #expect(racing != nil)  // read before the logout committed
        #expect(after == nil)
    }

    @Test("it remembers at most its capacity of sessions, letting go of the one used least, not of all")
    func bounded() async throws {
        let accounts = try await remembering(capacity: 2)
        for hash in ["h2", "h3"] { try await base.createSession(userID: 7, tokenHash: hash, expiresAt: now.addingTimeInterval(3600)) }
        for hash in ["h1", "h2"] { _ = try await accounts.session(tokenHash: hash, now: now) }
        _ = try await accounts.session(tokenHash: "h1", now: now)
        #expect(base.lookups == 2)

        _ = try await accounts.session(tokenHash: "h3", now: now)  // full: h2, used once, goes
        _ = try await accounts.session(tokenHash: "h3", now: now)
        _ = try await accounts.session(tokenHash: "h1", now: now)
        #expect(base.lookups == 3)
        _ = try await accounts.session(tokenHash: "h2", now: now)
        #expect(base.lookups == 4)
        #expect(accounts.report.entries == 2)
        #expect(accounts.report.evictions == 2)
    }

    @Test("many sessions looked up at once: the remembered ones from memory, the rest in one read and remembered; unknown ones left out")
    func manyAtOnce() async throws {
        let accounts = try await remembering()
        try await base.createSession(userID: 7, tokenHash: "h2", expiresAt: now.addingTimeInterval(3600))
        try await base.createSession(userID: 7, tokenHash: "old", expiresAt: now.addingTimeInterval(-1))
        _ = try await accounts.session(tokenHash: "h1", now: now)
        #expect(base.lookups == 1)

        let found = try await accounts.sessions(tokenHashes: ["h1", "h2", "nope", "old", "h2"], now: now)
        #expect(Set(found.keys) == ["h1", "h2"])
        #expect(base.lookups == 4, "h2, nope and old read once each; h1 remembered")
        #expect(try await accounts.session(tokenHash: "h2", now: now) == found["h2"])
        #expect(accounts.rememberedSession(tokenHash: "h2", now: now) != nil)
        #expect(base.lookups == 4)
    }

    @Test("sessions read at once while a logout happens are not remembered")
    func manyAtOnceDuringALogout() async throws {
        let accounts = try await remembering()
        try await base.createSession(userID: 7, tokenHash: "h2", expiresAt: now.addingTimeInterval(3600))
        base.duringLookup.withLockedValue { $0 = { [base] in try await base.deleteSession(tokenHash: "h2") } }
        _ = try await accounts.sessions(tokenHashes: ["h1", "h2"], now: now)
        base.duringLookup.withLockedValue { $0 = nil }
        #expect(accounts.rememberedSession(tokenHash: "h1", now: now) == nil)
        #expect(try await accounts.session(tokenHash: "h2", now: now) == nil)
    }

    @Test("the database reads many sessions in one query: unknown and expired ones are left out", arguments: TestStorage.all)
    func manyFromTheDatabase(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, _ in
            let accounts = FluentAccountRepository(database: server.database.database, changes: ChangePipeline())
            try await accounts.createSession(userID: TestUser.editor.id, tokenHash: "expired", expiresAt: Date().addingTimeInterval(-60))
            let hashes = [TestUser.reader, .otherReader, .admin].map { SessionToken.hash($0.token) }
            let found = try await accounts.sessions(tokenHashes: hashes + ["expired", "unknown"], now: Date())
            #expect(Set(found.keys) == Set(hashes))
            #expect(found[hashes[1]]?.user.id == TestUser.otherReader.id)
            #expect(found[hashes[2]]?.user.role == .admin)
            #expect(try await accounts.session(tokenHash: hashes[0], now: Date())?.user.id == TestUser.reader.id)
            #expect(try await accounts.session(tokenHash: "expired", now: Date()) == nil)
        }
    }
}
