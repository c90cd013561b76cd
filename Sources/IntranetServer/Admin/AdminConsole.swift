import Foundation
import IntranetHTML
import IntranetAPI
import Logging

/// The administration behind `intranet-server users …`, `apps …`, `import …` and `search-index …`: works on
/// the database directly, so the first admin can be made before anyone can sign in.
public struct AdminConsole: Sendable {
    private let database: DatabaseService
    private let accounts: FluentAccountRepository
    private let hasher: PasswordHasher
    /// What imported bodies go through (`EMBED_HOSTS` decides which embeds stay).
    private let sanitizer: HTMLSanitizer

    /// Opens (and migrates) the configured database.
    ///
    /// - Throws: ``StartupError`` when the database cannot be opened.
    public static func open(_ configuration: AppConfiguration) async throws -> AdminConsole {
        var logger = Logger(label: "intranet-server-admin")
        logger.logLevel = .warning
        let database = try DatabaseService(storage: configuration.storage, logger: logger)
        do {
            try await database.migrate(seeds: configuration.seedsDatabase)
        } catch {
            await database.close()
            throw StartupError(storage: configuration.storage, underlying: error)
        }
        return AdminConsole(
            database: database,
            accounts: FluentAccountRepository(database: database.database),
            hasher: PasswordHasher(cost: configuration.passwordCost),
            sanitizer: HTMLSanitizer(embedHosts: configuration.embedHosts)
        )
    }

    /// Writes the announcements' search index again from scratch, in one transaction (searches
    /// meanwhile use the old index).
    ///
    /// - Returns: how many announcements were indexed.
    public func rebuildSearchIndex() async throws -> Int {
        try await database.database.transaction { try await AnnouncementSearchIndex.rebuild(on: $0) }
    }

    /// Closes the database.
    public func close() async {
        await database.close()
    }

    /// Creates an account.
    ///
    /// - Throws: ``AdminError`` for a bad username, display name or password, or a taken username.
    public func createUser(username: String, displayName: String?, role: UserRole, password: String) async throws -> User {
        if let problem = UserInput.usernameProblem(username) { throw AdminError("username \(problem)") }
        if let problem = UserInput.passwordProblem(password) { throw AdminError("password \(problem)") }
        let name = AnnouncementRules.normalizedTitle(displayName ?? username)
        guard !name.isEmpty, name.unicodeScalars.count <= 255 else { throw AdminError("display name must be 1 to 255 characters") }
        let hash = try await hasher.hash(password)
        return try await translating {
            try await accounts.createUser(username: username, displayName: name, role: role, passwordHash: hash).api
        }
    }

    /// Every account, by id.
    public func listUsers() async throws -> [User] {
        try await accounts.users().map(\.api)
    }

    /// Changes an account's role.
    ///
    /// - Throws: ``AdminError`` for an unknown username, or when it would leave no admin.
    public func setRole(username: String, role: UserRole) async throws -> User {
        let user = try await requireUser(username)
        return try await translating { try await accounts.updateUser(id: user.id, changes: UserChanges(role: role)).api }
    }

    /// Deletes an account with its sessions.
    ///
    /// - Throws: ``AdminError`` for an unknown username, or for the last admin.
    public func deleteUser(username: String) async throws {
        let user = try await requireUser(username)
        try await translating { try await accounts.deleteUser(id: user.id) }
    }

    /// Registers an app that signs its requests; the secret is shown only this once.
    public func registerApp(name: String) async throws -> (appID: String, secret: String) {
        let trimmed = AnnouncementRules.normalizedTitle(name)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 255 else { throw AdminError("app name must be 1 to 255 characters") }
        return try await SigningAppRegistry(database: database.database).register(name: trimmed)
    }

    /// Imports a WordPress export (WXR) from `path`, in one transaction.
    ///
    /// - Parameters:
    ///   - owner: the admin's username private posts are restricted to (with
    ///     ``ImportOptions/includePrivate``).
    ///   - progress: called every 100 items, and at the end.
    /// - Throws: ``AdminError`` for a malformed file (naming line and column), an owner who is
    ///   not an admin, or an SQLite file a running server is serving (its caches would not
    ///   see the import: import through the API then).
    public func importWordPress(
        path: String, options: ImportOptions, owner: String?, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> ImportReport {
        if database.isServedElsewhere && !options.dryRun {
            throw AdminError(
                "a server is serving this database: stop it first, or import through it (intranet import wordpress FILE, or POST /imports/wordpress)")
        }
        var options = options
        if let owner {
            let user = try await requireUser(owner)
            guard user.role == .admin else { throw AdminError("'\(owner)' is not an admin: private posts are restricted to an admin") }
            options.owner = user.id
        } else if options.includePrivate {
            throw AdminError("--include-private needs --owner USERNAME, the admin the private posts are restricted to")
        }
        do {
            return try await WordPressImporter(database: database.database, sanitizer: sanitizer).run(path: path, options: options, progress: progress)
        } catch let error as WXRError {
            throw AdminError("\(path): \(error)")
        }
    }

    private func requireUser(_ username: String) async throws -> StoredUser {
        guard let user = try await accounts.user(username: username) else {
            throw AdminError("no user is called '\(username)'")
        }
        return user
    }

    /// Turns the API's errors (409, 404) into messages for the console.
    private func translating<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as APIError {
            throw AdminError(error.detail)
        }
    }
}

/// A refused administration command, with a message for the person at the console.
public struct AdminError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
