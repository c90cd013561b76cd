import FluentKit
import Foundation
import IntranetAPI

/// ``AccountRepository`` on FluentKit.
struct FluentAccountRepository: AccountRepository {
    let database: any Database

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
        try await database.transaction { database in
            guard try await UserModel.query(on: database).filter(\.$usernameKey == model.usernameKey).count() == 0 else {
                throw APIError(status: .conflict, detail: "The username '\(username)' is taken.")
            }
            try await model.create(on: database)
        }
        return try StoredUser(model)
    }

    func updateUser(id: Int, changes: UserChanges) async throws -> StoredUser {
        try await database.transaction { database in
            guard let model = try await UserModel.find(id, on: database) else { throw APIError.notFound("No user has this id.") }
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
        try await database.transaction { database in
            guard let model = try await UserModel.find(id, on: database) else { throw APIError.notFound("No user has this id.") }
            if model.role == UserRole.admin.rawValue {
                try await Self.requireAnotherAdmin(than: id, on: database)
            }
            try await SessionModel.query(on: database).filter(\.$userID == id).delete()
            try await ReaderGrantModel.query(on: database).filter(\.$userID == id).delete()
            try await model.delete(on: database)
            // Reader lists changed: cached answers must go.
            try await FluentAnnouncementRepository.bumpRevision(on: database)
        }
    }

    func createSession(userID: Int, tokenHash: String, expiresAt: Date) async throws {
        try await SessionModel(tokenHash: tokenHash, userID: userID, expiresAt: expiresAt, createdAt: Date()).create(on: database)
    }

    func sessionUser(tokenHash: String, now: Date) async throws -> StoredUser? {
        guard let session = try await SessionModel.query(on: database).filter(\.$tokenHash == tokenHash).first(),
              session.expiresAt > now
        else { return nil }
        return try await user(id: session.userID)
    }

    func deleteSession(tokenHash: String) async throws {
        try await SessionModel.query(on: database).filter(\.$tokenHash == tokenHash).delete()
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
