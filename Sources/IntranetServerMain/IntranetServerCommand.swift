import ArgumentParser
import Foundation
import IntranetServer

/// `intranet-server`: runs the intranet backend and administers it.
@main
struct IntranetServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intranet-server",
        abstract: "Serve the intranet announcements API, manage its users and signing apps, import content, and back it up.",
        subcommands: [ServeCommand.self, UsersCommand.self, AppsCommand.self, ImportCommand.self, BackupCommand.self, SearchIndexCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

/// Options shared by every subcommand: where the data lives.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("database-url"), help: "postgres://… or sqlite:PATH (env DATABASE_URL; default sqlite:intranet.sqlite).")
    var databaseURL: String?

    /// The configuration from the environment, with these flags winning.
    func configuration(overriding flags: [String: String?] = [:]) throws -> AppConfiguration {
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = databaseURL ?? environment["DATABASE_URL"]
        for (name, value) in flags {
            environment[name] = value ?? environment[name]
        }
        do {
            return try AppConfiguration.fromEnvironment(environment)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}

/// Runs an administration task on the configured database and reports failures in one line.
func withAdminConsole(_ options: DatabaseOptions, _ task: (AdminConsole) async throws -> Void) async throws {
    let console: AdminConsole
    do {
        console = try await AdminConsole.open(try options.configuration())
    } catch let error as StartupError {
        FileHandle.standardError.write(Data("intranet-server: \(error)\n".utf8))
        throw ExitCode.failure
    }
    do {
        try await task(console)
    } catch let error as AdminError {
        await console.close()
        FileHandle.standardError.write(Data("intranet-server: \(error)\n".utf8))
        throw ExitCode.failure
    }
    await console.close()
}
