import ArgumentParser
import IntranetAPI
import IntranetClient

/// `intranet users set-role USERNAME ROLE`: gives an account another role.
struct UsersSetRoleCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-role",
        abstract: "Give an account another role (the last admin cannot be demoted).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account's user name.")
    var username: String

    @Argument(help: ArgumentHelp("reader, editor or admin.", valueName: "role"))
    var role: UserRole

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let target = try await session.user(named: username)
        let user = try await session.performAsAdmin("user \(target.username)") {
            try await session.client.users.setRole(role, id: target.id)
        }
        try await session.finish(saying: "\(user.username) is now \(user.role.rawValue).")
    }
}

/// `intranet users delete USERNAME [--yes]`: asks first on a terminal; refuses without a
/// terminal unless `--yes` says so. Deleting an account ends its sessions.
struct UsersDeleteCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an account and end its sessions (asks first unless --yes).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account's user name.")
    var username: String

    @Flag(name: .shortAndLong, help: "Delete without asking.")
    var yes = false

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let subject = "user \(username)"
        try context.requireConfirmable(deleting: subject, yes: yes)
        let target = try await session.user(named: username)
        if !yes {
            try await context.confirmDeletion(
                of: subject, asking: "Delete user \(target.username) (\(target.displayName), \(target.role.rawValue))?")
        }
        try await session.performAsAdmin(subject) { try await session.client.users.deleteUnconditionally(id: target.id) }
        if !session.printsRaw {
            await context.io.write("Deleted user \(target.username).\n")
        }
    }
}

extension CommandSession {
    /// The account with this user name (letter case does not matter), found in `GET /users`.
    ///
    /// - Throws: a not-found ``TerminalFailure`` when there is none, or the request's failure.
    func user(named username: String) async throws -> User {
        let users = try await performAsAdmin("the users") { try await client.users.list() }
        guard let user = users.first(where: { $0.username.lowercased() == username.lowercased() }) else {
            throw TerminalFailure(.notFound, "user \(username) does not exist")
        }
        return user
    }
}
