import FluentKit
import Foundation
import IntranetAPI
import SQLKit

/// ``AccountRepository`` on FluentKit. Changes to accounts and their sessions go through the
/// ``ChangePipeline`` as changes of ``ChangeDomain/accounts``; signing in (a new session) and
/// recording a failed sign-in are not changes: nothing remembered depends on them.
struct FluentAccountRepository: AccountRepository {
    let database: any Database
    /// Where changes commit, and what learns of them.
    let changes: ChangePipeline

    /// - Parameters:
    ///   - changes: the server's pipeline; without one (tools, tests), writes still count in
    ///     the database's revisions, but nothing in this process hears of them.
    init(database: any Database, changes: ChangePipeline? = nil) {
        self.database = database
        self.changes = changes ?? ChangePipeline(database: database)
    }

    func countUsers() async throws -> Int {
        try await UserModel.query(on: database).count()
    }

    func users() async throws -> [StoredUser] {
        try await UserModel.query(on: database).sort(\.$id).all().map(StoredUser.init)
    }

    func user(id: Int) async throws -> StoredUser? {
        try await UserModel.find(id, on: database).map(StoredUser.init)
    }

    func user(username: String) async throws -> StoredUser? {
        try await UserModel.query(on: database).filter(\.$usernameKey == username.lowercased()).first().map(StoredUser.init)
    }

    func createUser(username: String, displayName: String, role: UserRole, passwordHash: String) async throws -> StoredUser {
        let model = UserModel(username: username, displayName: displayName, role: role.rawValue, passwordHash: passwordHash, createdAt: Date())
        try await changes.write(.accounts, on: database) { database, changed in
            guard try await UserModel.query(on: database).filter(\.$usernameKey == model.usernameKey).count() == 0 else {
                throw APIError(status: .conflict, detail: "The username '\(username)' is taken.")
            }
            try await model.create(on: database)
            changed.subjects = [.account(id: try model.requireID(), .created)]
        }
        return try StoredUser(model)
    }

    func updateUser(id: Int, changes: UserChanges) async throws -> StoredUser {
        try await self.changes.write(.accounts, on: database) { database, changed in
            guard let model = try await UserModel.find(id, on: database) else { throw APIError.notFound("No user has this id.") }
            changed.subjects = [.account(id: id, .changed)]
            if let role = changes.role, model.role == UserRole.admin.rawValue, role != .admin {
                try await Self.requireAnotherAdmin(than: id, on: database)
            }
            if let displayName = changes.displayName { model.displayName = displayName }
            if let role = changes.role { model.role = role.rawValue }
            if let passwordHash = changes.passwordHash {
                model.passwordHash = passwordHash
                try await SessionModel.query(on: database).filter(\.$userID == id).delete()
            }
            try await model.update(on: database)
            return try StoredUser(model)
        }
    }

    func deleteUser(id: Int) async throws {
        // Reader lists lose the account, a person linked to it loses the link, and its
        // acknowledgements go (counted as former employees').
        try await changes.write([.accounts, .announcements], on: database) { database, changed in
            guard let model = try await UserModel.find(id, on: database) else { throw APIError.notFound("No user has this id.") }
            if model.role == UserRole.admin.rawValue {
                try await Self.requireAnotherAdmin(than: id, on: database)
            }
            let linked = try await PersonModel.query(on: database).filter(\.$userID == id).all().compactMap(\.id)
            if !linked.isEmpty {
                changed.domains.insert(.people)
            }
            try await SessionModel.query(on: database).filter(\.$userID == id).delete()
            // Live streams: the announcements naming the account are read by one reader less.
            let named = try await ReaderGrantModel.query(on: database).filter(\.$userID == id).all().map(\.announcementID)
            try await ReaderGrantModel.query(on: database).filter(\.$userID == id).delete()
            if try await AcknowledgementStore.forget(userID: id, on: database) {
                changed.domains.insert(.acknowledgements)
            }
            try await model.delete(on: database)
            changed.subjects = [.account(id: id, .deleted)] + Set(named).sorted().map { .announcement(id: $0, .changed) }
                + linked.map { .person(id: $0, .changed) }
        }
    }

    func createSession(userID: Int, tokenHash: String, expiresAt: Date) async throws {
        try await SessionModel(tokenHash: tokenHash, userID: userID, expiresAt: expiresAt, createdAt: Date()).create(on: database)
    }

    /// How many sessions have not expired (for `/metrics`).
    func countActiveSessions(now: Date) async throws -> Int {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        let row = try await sql.raw("SELECT COUNT(*) AS count FROM sessions WHERE expires_at > \(bind: now)").first()
        return try row?.decode(column: "count", as: Int.self) ?? 0
    }

    func session(tokenHash: String, now: Date) async throws -> ActiveSession? {
        // Every signed-in request's first sight runs this, so it is one hand-written query with
        // bound values: building it with Fluent's query builder and models costs several times
        // more CPU.
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        return try await sql.raw(Self.sessionsQuery("s.token_hash = \(bind: tokenHash)", now: now)).first().map(Self.session(in:))
    }

    func sessions(tokenHashes: [String], now: Date) async throws -> [String: ActiveSession] {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        guard !tokenHashes.isEmpty else { return [:] }
        var found: [String: ActiveSession] = [:]
        for row in try await sql.raw(Self.sessionsQuery("s.token_hash IN (\(binds: tokenHashes))", now: now)).all() {
            found[try row.decode(column: "token_hash", as: String.self)] = try Self.session(in: row)
        }
        return found
    }

    /// The sessions `wanted` selects that have not expired at `now`, each with its user.
    private static func sessionsQuery(_ wanted: SQLQueryString, now: Date) -> SQLQueryString {
        """
        SELECT s.token_hash AS token_hash, u.id AS id, u.username AS username, u.display_name AS display_name, u.role AS role,
            u.password_hash AS password_hash, s.expires_at AS expires_at
        FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE \(wanted) AND s.expires_at > \(bind: now)
        """
    }

    private static func session(in row: any SQLRow) throws -> ActiveSession {
        let user = StoredUser(
            id: try row.decode(column: "id", as: Int.self),
            username: try row.decode(column: "username", as: String.self),
            displayName: try row.decode(column: "display_name", as: String.self),
            role: UserRole(rawValue: try row.decode(column: "role", as: String.self)) ?? .reader,
            passwordHash: try row.decode(column: "password_hash", as: String.self)
        )
        return ActiveSession(user: user, expiresAt: try row.decode(column: "expires_at", as: Date.self))
    }

    func deleteSession(tokenHash: String) async throws {
        try await changes.write(.accounts, on: database) { database, changed in
            let sessions = try await SessionModel.query(on: database).filter(\.$tokenHash == tokenHash).all()
            guard !sessions.isEmpty else {
                changed.domains = []
                return
            }
            try await SessionModel.query(on: database).filter(\.$tokenHash == tokenHash).delete()
            changed.subjects = sessions.map { .account(id: $0.userID, .changed) }
        }
    }

    func failures(usernameKey: String, since: Date) async throws -> [Date] {
        try await LoginFailureModel.query(on: database)
            .filter(\.$usernameKey == usernameKey).filter(\.$failedAt > since)
            .sort(\.$failedAt).all(\.$failedAt)
    }

    func recordFailure(usernameKey: String, at: Date) async throws {
        try await LoginFailureModel(usernameKey: usernameKey, failedAt: at).create(on: database)
    }

    func clearFailures(usernameKey: String, olderThan before: Date) async throws {
        try await LoginFailureModel.query(on: database)
            .group(.or) { $0.filter(\.$usernameKey == usernameKey).filter(\.$failedAt < before) }
            .delete()
    }

    private static func requireAnotherAdmin(than id: Int, on database: any Database) async throws {
        let others = try await UserModel.query(on: database)
            .filter(\.$role == UserRole.admin.rawValue).filter(\.$id != id).count()
        guard others > 0 else {
            throw APIError(status: .conflict, detail: "This is the last admin; make another admin first.")
        }
    }
}

extension StoredUser {
    init(_ model: UserModel) throws {
        self.init(
            id: try model.requireID(),
            username: model.username,
            displayName: model.displayName,
            role: UserRole(rawValue: model.role) ?? .reader,
            passwordHash: model.passwordHash
        )
    }
}

/// Raised when the accounts live in a database that does not speak SQL; both drivers do.
struct SQLDatabaseRequired: Error, CustomStringConvertible {
    var description: String { "sessions are looked up with SQL; the database driver does not support it" }
}
