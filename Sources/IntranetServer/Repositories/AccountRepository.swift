import Foundation
import IntranetAPI

/// An account as the server stores it.
struct StoredUser: Sendable, Equatable {
    var id: Int
    var username: String
    var displayName: String
    var role: UserRole
    /// The bcrypt hash of the password; never leaves the server.
    var passwordHash: String

    /// The account as the API shows it.
    var api: User {
        User(id: id, username: username, displayName: displayName, role: role)
    }
}

/// A session that has not expired, and whose it is.
struct ActiveSession: Sendable, Equatable {
    var user: StoredUser
    var expiresAt: Date
}

/// Changes to an account; `nil` fields stay as they are.
struct UserChanges: Sendable, Equatable {
    var displayName: String?
    var role: UserRole?
    var passwordHash: String?
}

/// Storage of accounts, sessions and failed logins. ``FluentAccountRepository`` is the only
/// place that queries them.
protocol AccountRepository: Sendable {
    func countUsers() async throws -> Int
    func users() async throws -> [StoredUser]
    func user(id: Int) async throws -> StoredUser?
    func user(username: String) async throws -> StoredUser?

    /// - Throws: ``APIError`` 409 when the username (in any letter case) is taken.
    func createUser(username: String, displayName: String, role: UserRole, passwordHash: String) async throws -> StoredUser

    /// Applies `changes`; a new password hash revokes every session of the user.
    ///
    /// - Throws: ``APIError`` 404 for an unknown id, 409 when it would leave no admin.
    func updateUser(id: Int, changes: UserChanges) async throws -> StoredUser

    /// Deletes the user with their sessions and reader grants.
    ///
    /// - Throws: ``APIError`` 404 for an unknown id, 409 when it would leave no admin.
    func deleteUser(id: Int) async throws

    func createSession(userID: Int, tokenHash: String, expiresAt: Date) async throws
    /// The session of a token hash with its user, or `nil` when unknown or expired at `now`.
    func session(tokenHash: String, now: Date) async throws -> ActiveSession?
    /// The sessions of several token hashes at once (one query), by token hash; unknown or
    /// expired ones are left out.
    func sessions(tokenHashes: [String], now: Date) async throws -> [String: ActiveSession]
    func deleteSession(tokenHash: String) async throws

    /// When the failed logins for `usernameKey` since `since` happened, oldest first.
    func failures(usernameKey: String, since: Date) async throws -> [Date]
    func recordFailure(usernameKey: String, at: Date) async throws
    /// Forgets failures for a username, and every failure older than `before`.
    func clearFailures(usernameKey: String, olderThan before: Date) async throws
}

extension AccountRepository {
    /// One lookup per token: for repositories without a query of many.
    func sessions(tokenHashes: [String], now: Date) async throws -> [String: ActiveSession] {
        var found: [String: ActiveSession] = [:]
        for tokenHash in tokenHashes {
            if let session = try await session(tokenHash: tokenHash, now: now) { found[tokenHash] = session }
        }
        return found
    }
}
