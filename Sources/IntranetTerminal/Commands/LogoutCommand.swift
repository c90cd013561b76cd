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
        let outcome = try await session.perform("signing out") { try await session.client.session.logout() }
        await context.io.write(outcome.userMessage + "\n")
    }
}
