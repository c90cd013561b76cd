import ArgumentParser
import IntranetClient

/// `intranet logout`: ends the session on the server and forgets it here.
struct LogoutCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out: the server revokes the token and the session file is removed.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let outcome = await session.client.session.logout()
        // The whole story first (what the server knows, and that the file is left behind)…
        await context.io.write(outcome.userMessage + "\n")
        if outcome.storeFailure != nil {
            // …then a failing status: the next run would load the session again.
            throw TerminalFailure(.failure, "the session file could not be deleted; delete it by hand")
        }
    }
}


/// `intranet whoami`: who the stored session belongs to, as the server knows them now.
struct WhoamiCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the signed-in user: display name, user name and role.",
        discussion: "Asks the server (GET /users/me), so a revoked or expired session shows as signed out (status 77).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let user = try await session.perform("the signed-in user") { try await session.client.session.me() }
        try await session.finish(saying: "\(user.displayName) (\(user.username), \(user.role.rawValue))")
    }
}
