import ArgumentParser
import Foundation
import IntranetServer

/// `intranet-server`: runs the intranet backend.
@main
struct IntranetServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intranet-server",
        abstract: "Serve the intranet announcements API.",
        discussion: """
            With no options the server stores its data in intranet.sqlite in the working \
            directory (created, migrated and seeded on first start) and listens on \
            127.0.0.1:8080. Environment: HOST, PORT, DATABASE_URL (postgres://user:pass@host:port/db \
            or sqlite:PATH), LOG_LEVEL, MAX_BODY_SIZE. Flags win over the environment.
            """
    )

    @Option(help: "The address to listen on (env HOST).")
    var host: String?

    @Option(help: "The port to listen on, 0 for any free port (env PORT).")
    var port: Int?

    @Option(name: .customLong("database-url"), help: "postgres://… or sqlite:PATH (env DATABASE_URL).")
    var databaseURL: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env LOG_LEVEL).")
    var logLevel: String?

    func run() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["HOST"] = host ?? environment["HOST"]
        environment["PORT"] = port.map(String.init) ?? environment["PORT"]
        environment["DATABASE_URL"] = databaseURL ?? environment["DATABASE_URL"]
        environment["LOG_LEVEL"] = logLevel ?? environment["LOG_LEVEL"]
        let configuration: AppConfiguration
        do {
            configuration = try AppConfiguration.fromEnvironment(environment)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        do {
            let application = try await buildApplication(configuration)
            try await application.runService()
        } catch let error as StartupError {
            FileHandle.standardError.write(Data("intranet-server: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
