import Foundation
import IntranetAPI
@testable import IntranetServer

/// The accounts every test server starts with, each with a session of a known token.
enum TestUser: String, CaseIterable, Sendable {
    case admin, editor, reader, otherReader

    static let password = "correct horse battery"

    /// The user id: accounts are created in declaration order on a fresh database.
    var id: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }

    var role: UserRole {
        switch self {
        case .admin: .admin
        case .editor: .editor
        case .reader, .otherReader: .reader
        }
    }

    /// A bearer token that works for this user.
    var token: String { "test-token-\(rawValue)" }

    /// Creates every test account with a session, straight in the database, unless a restart
    /// finds them there already.
    static func createAll(in server: IntranetServer) async throws {
        // Through the server's own pipeline, as its own writes (not another process's).
        let accounts = FluentAccountRepository(database: server.database.database, changes: server.changes)
        guard try await accounts.countUsers() == 0 else { return }
        let hash = try await PasswordHasher(cost: 4).hash(password)
        for user in allCases {
            let stored = try await accounts.createUser(username: user.rawValue, displayName: user.rawValue.capitalized, role: user.role, passwordHash: hash)
            try await accounts.createSession(userID: stored.id, tokenHash: SessionToken.hash(user.token), expiresAt: Date().addingTimeInterval(3600))
        }
    }
}

/// Who sends a test request.
enum Caller: Sendable {
    /// Reads signed out, writes as the editor.
    case automatic
    /// No token at all.
    case anonymous
    /// One of the test accounts.
    case user(TestUser)

    static let admin = Caller.user(.admin)
    static let editor = Caller.user(.editor)
    static let reader = Caller.user(.reader)
    static let otherReader = Caller.user(.otherReader)
}
