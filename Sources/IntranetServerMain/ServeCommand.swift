import ArgumentParser
import Foundation
import IntranetServer

/// `intranet-server [serve]`: runs the server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API (the default).",
        discussion: """
            With no options the server stores its data in intranet.sqlite in the working \
            directory (created, migrated and seeded on first start) and listens on \
            127.0.0.1:8080. Environment: HOST, PORT, DATABASE_URL (postgres://user:pass@host:port/db \
            or sqlite:PATH), DATABASE_POOL_SIZE, STALENESS_BOUND_MS, SHUTDOWN_GRACE_SECONDS, ACCESS_LOG, METRICS_TOKEN, LOG_LEVEL, MAX_BODY_SIZE, IMPORT_MAX_BYTES, INTRANET_ANONYMOUS_READ, \
            INTRANET_REQUIRE_SIGNATURE, INTRANET_SESSION_DAYS. Flags win over the environment.
            """
    )

    @Option(help: "The address to listen on (env HOST).")
    var host: String?

    @Option(help: "The port to listen on, 0 for any free port (env PORT).")
    var port: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env LOG_LEVEL).")
    var logLevel: String?

    @Option(help: ArgumentHelp(
        "PostgreSQL connections this instance keeps, in total (env DATABASE_POOL_SIZE; default \(AppConfiguration.defaultDatabasePoolSize); SQLite always uses one).",
        valueName: "count"))
    var databasePoolSize: String?

    @Option(help: ArgumentHelp(
        "On PostgreSQL, the longest a write or logout made through another instance may go unseen by this one, 50 to 60000 (env STALENESS_BOUND_MS; default 2000).",
        valueName: "ms"))
    var stalenessBoundMs: String?

    @Option(help: ArgumentHelp(
        "On SIGTERM or SIGINT, how long requests in flight may take to finish before the server stops anyway, 0 to 3600 (env SHUTDOWN_GRACE_SECONDS; default 30).",
        valueName: "seconds"))
    var shutdownGraceSeconds: String?

    @Option(help: ArgumentHelp(
        "The access log on standard output: logfmt, json or off (env ACCESS_LOG; default logfmt).",
        valueName: "format"))
    var accessLog: String?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let configuration = try database.configuration(overriding: [
            "HOST": host, "PORT": port.map(String.init), "LOG_LEVEL": logLevel, "DATABASE_POOL_SIZE": databasePoolSize,
            "STALENESS_BOUND_MS": stalenessBoundMs, "SHUTDOWN_GRACE_SECONDS": shutdownGraceSeconds,
            "ACCESS_LOG": accessLog,
        ])
        do {
            try await runServer(configuration)
        } catch let error as StartupError {
            FileHandle.standardError.write(Data("intranet-server: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
