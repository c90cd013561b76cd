import ArgumentParser
import IntranetAPI
import IntranetClient

/// `intranet users`: the accounts, for admins; lists by default.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, create, change the role of and delete accounts (admins only).",
        discussion: """
            Every users command needs an admin's session (intranet login). A user is named by \
            user name; set-role and delete look the id up in the list.

            \(ExitStatus.helpText)
            """,
        subcommands: [UsersListCommand.self, UsersCreateCommand.self, UsersSetRoleCommand.self, UsersDeleteCommand.self],
        defaultSubcommand: UsersListCommand.self)
}

extension UserRole: ExpressibleByArgument {}

/// `intranet users list`: every account as an aligned table, or the server's JSON.
struct UsersListCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the accounts: id, user name, role and display name.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let users = try await session.performAsAdmin("the users") { try await session.client.users.list() }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
        } else {
            await session.writeLines(UserTable(width: context.width, isStyled: context.isStyled).lines(for: users))
        }
    }
}

/// `intranet users create --username U --role R [--display-name N]`: makes an account; its
/// password is asked for without echo, or read with `--password-stdin`.
struct UsersCreateCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an account (the password is asked for twice without echo, or read with --password-stdin).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The new user's sign-in name.")
    var username: String

    @Option(help: ArgumentHelp("reader, editor or admin.", valueName: "role"))
    var role: UserRole

    @Option(help: "The name people see (default: the user name).")
    var displayName: String?

    @Flag(help: "Read the new user's password from standard input.")
    var passwordStdin = false

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let password = try await PasswordInput.read(
            prompt: "Password for \(username): ", fromStandardInput: passwordStdin, confirm: true, context: context)
        let request = NewUser(username: username, displayName: displayName, role: role, password: password)
        let user = try await session.performAsAdmin("the new user") { try await session.client.users.create(request) }
        try await session.finish(saying: "Created user \(user.id): \(user.displayName) (\(user.username), \(user.role.rawValue)).")
    }
}
