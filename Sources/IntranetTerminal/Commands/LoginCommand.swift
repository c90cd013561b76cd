import ArgumentParser
import Foundation
import IntranetClient
import RESTRepository

/// `intranet login`: signs in and keeps the session in a file only you can read, so the
/// editor commands that follow are sent with its token.
struct LoginCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in; later commands to the same server use the session.",
        discussion: """
            The session is kept per server in $XDG_CONFIG_HOME/intranet/sessions (else \
            ~/.config/intranet/sessions), readable by you only. On a terminal the password is \
            asked for without echo; scripts pass it on standard input with --password-stdin.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The user name (asked for when left out).")
    var username: String?

    @Flag(help: "Read the password from standard input.")
    var passwordStdin = false

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let io = context.io
        let name: String
        if let username {
            name = username
        } else {
            guard context.isInputTerminal, !passwordStdin else {
                throw TerminalFailure.usage("give --username: standard input is not a terminal to ask on")
            }
            await io.writeError("Username: ")
            name = await io.readLine() ?? ""
        }
        let password = try await PasswordInput.read(prompt: "Password: ", fromStandardInput: passwordStdin, context: context)
        let signedIn: Session
        do {
            signedIn = try await session.client.session.login(username: name, password: password)
        } catch RepositoryError.unauthorized(let details) where !TerminalFailure.isSignatureRefusal(details) {
            throw TerminalFailure(.unauthorized, "wrong user name or password")
        } catch {
            throw TerminalFailure(error, server: session.serverURL, subject: "signing in")
        }
        let user = signedIn.user
        await io.write("Signed in to \(session.serverURL.absoluteString) as \(user.displayName) (\(user.username), \(user.role.rawValue)).\n")
    }
}
