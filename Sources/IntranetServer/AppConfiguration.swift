import Foundation
import Logging

/// How an intranet server runs: where it listens, where it stores data, what it accepts.
public struct AppConfiguration: Sendable {
    /// Where the server keeps its data.
    public enum Storage: Sendable, Equatable {
        /// An SQLite file, created when missing (WAL journal, foreign keys on).
        case sqliteFile(path: String)
        /// A throwaway SQLite database that lives as long as the server (for tests).
        case sqliteInMemory
        /// A PostgreSQL database, the engine for more than one server instance.
        ///
        /// - Parameters:
        ///   - url: `postgres://user:password@host:port/database`.
        ///   - schema: a schema to use instead of `public` (tests give each run its own).
        case postgres(url: String, schema: String? = nil)
    }

    /// The default largest request body: 2 MiB.
    public static let defaultMaxBodySize = 2 * 1024 * 1024

    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on; `0` picks a free one.
    public var port = 8080
    /// Where data lives.
    public var storage = Storage.sqliteFile(path: "intranet.sqlite")
    /// Whether a database that was never seeded gets the six sample announcements.
    public var seedsDatabase = true
    /// The largest request body accepted, in bytes; larger bodies get 413.
    public var maxBodySize = defaultMaxBodySize
    /// Most bytes of a WordPress export sent to `POST /imports/wordpress` (`IMPORT_MAX_BYTES`).
    /// The body is written to a temporary file as it arrives, so this bounds disk, not memory.
    public var importMaxBytes = defaultImportMaxBytes
    /// 256 MiB: real exports are tens of megabytes, and years of a busy site a few hundred.
    public static let defaultImportMaxBytes = 256 * 1024 * 1024
    /// Hosts whose `https` pages may be embedded in announcement bodies (`<iframe>`), e.g.
    /// `www.youtube-nocookie.com` (`EMBED_HOSTS`, comma-separated); empty (the default) removes
    /// every `iframe`. Web pages allow frames from exactly these hosts.
    public var embedHosts: Set<String> = []
    /// Whether the web front end's cookies are marked `Secure` (`INTRANET_SECURE_COOKIES`):
    /// set it when browsers reach the server over HTTPS (through a proxy, say).
    public var secureCookies = false
    /// The server's log level; each request is logged at `debug`.
    public var logLevel = Logger.Level.info
    /// Whether signed-out callers may read unrestricted announcements.
    public var allowsAnonymousReading = true
    /// Whether every request must be signed by a registered app (API.md §3).
    public var requiresSignature = false
    /// How long a session token lasts, in seconds (30 days by default).
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// The bcrypt cost of stored passwords.
    public var passwordCost: UInt8 = 12
    /// How many PostgreSQL connections one server instance keeps open, in total
    /// (`DATABASE_POOL_SIZE`); SQLite always uses one (writes are serialised in the process).
    public var databasePoolSize = defaultDatabasePoolSize
    /// The pool size when none is configured, chosen from `scripts/bench-server` on 2-core
    /// machines (README, "PostgreSQL").
    public static let defaultDatabasePoolSize = 8
    /// The largest pool size accepted.
    public static let maxDatabasePoolSize = 256
    /// On PostgreSQL, the longest a write (or a logout, a role change) made through another
    /// instance may go unseen by this one (`STALENESS_BOUND_MS`; 2 s by default). Shorter means
    /// fresher, but whenever the database answers this instance's change-feed pings later than
    /// the bound allows, reads ask the database again until it catches up (README, PostgreSQL).
    public var stalenessBound = Duration(ChangeFeed.defaultStalenessBound)
    /// The shortest and longest ``stalenessBound`` accepted.
    public static let stalenessBoundRange = Duration.milliseconds(50)...Duration.seconds(60)
    /// How long a session found in the database is used without asking again
    /// (``SessionRememberingAccountRepository``); `nil`: a second on SQLite (changes made by
    /// other processes on the file are seen that late), a minute on PostgreSQL (the change feed
    /// announces them). Tests set it.
    var sessionRecheckInterval: Duration?
    /// On SIGTERM or SIGINT the server stops accepting connections and lets requests in
    /// flight finish for up to this long (`SHUTDOWN_GRACE_SECONDS`; 30 s by default), then
    /// cancels what is left and closes the database.
    public var shutdownGrace = Duration.seconds(30)
    /// The longest ``shutdownGrace`` accepted: an hour.
    public static let maxShutdownGrace = Duration.seconds(3600)
    /// The access log: one line per request on standard output, in this format (`ACCESS_LOG`:
    /// `logfmt`, the default, `json`, or `off` for `nil`).
    public var accessLog: AccessLogFormat? = .logfmt
    /// The token `GET /metrics` asks for (`METRICS_TOKEN`, at least 16 characters); without one
    /// the route does not exist and nothing is counted. Kept out of flags, which other users of
    /// the machine can read in the process list.
    public var metricsToken: String?
    /// Where access log lines go (tests collect them).
    var accessLogOutput: @Sendable (String) -> Void = AccessLog.standardOutput
    /// The wall clock sessions and logins are judged by (tests move it).
    var now: @Sendable () -> Date = { Date() }

    /// A configuration with every default: SQLite file `intranet.sqlite` on 127.0.0.1:8080.
    public init() {}

    /// The defaults overridden by the environment: `HOST`, `PORT`, `DATABASE_URL` (a
    /// `postgres://` URL, or `sqlite:PATH`), `DATABASE_POOL_SIZE`, `STALENESS_BOUND_MS`,
    /// `SHUTDOWN_GRACE_SECONDS`, `ACCESS_LOG`, `METRICS_TOKEN`, `LOG_LEVEL`, `MAX_BODY_SIZE`, `IMPORT_MAX_BYTES`,
    /// `INTRANET_ANONYMOUS_READ`, `INTRANET_REQUIRE_SIGNATURE` (`true`/`false`),
    /// `INTRANET_SESSION_DAYS`, `EMBED_HOSTS` (comma-separated host names),
    /// `INTRANET_SECURE_COOKIES` (`true`/`false`).
    ///
    /// - Throws: ``ConfigurationError`` naming the variable that holds a bad value.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AppConfiguration {
        var configuration = AppConfiguration()
        if let host = environment["HOST"], !host.isEmpty {
            configuration.host = host
        }
        if let port = environment["PORT"], !port.isEmpty {
            configuration.port = try ConfigurationError.port(port, from: "PORT")
        }
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            configuration.storage = try Storage(databaseURL: url)
        }
        if let level = environment["LOG_LEVEL"], !level.isEmpty {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw ConfigurationError(variable: "LOG_LEVEL", message: "must be one of trace, debug, info, notice, warning, error, critical")
            }
            configuration.logLevel = parsed
        }
        if let hosts = environment["EMBED_HOSTS"], !hosts.isEmpty {
            configuration.embedHosts = try Self.embedHosts(hosts)
        }
        if let secure = environment["INTRANET_SECURE_COOKIES"], !secure.isEmpty {
            guard let value = Bool(secure.lowercased()) else {
                throw ConfigurationError(variable: "INTRANET_SECURE_COOKIES", message: "must be true or false")
            }
            configuration.secureCookies = value
        }
        if let size = environment["MAX_BODY_SIZE"], !size.isEmpty {
            guard let bytes = Int(size), bytes > 0 else {
                throw ConfigurationError(variable: "MAX_BODY_SIZE", message: "must be a positive number of bytes")
            }
            configuration.maxBodySize = bytes
        }
        if let size = environment["IMPORT_MAX_BYTES"], !size.isEmpty {
            guard let bytes = Int(size), (1024 * 1024...4 * 1024 * 1024 * 1024).contains(bytes) else {
                throw ConfigurationError(
                    variable: "IMPORT_MAX_BYTES", message: "must be a whole number of bytes from 1048576 (1 MiB) to 4294967296 (4 GiB), not '\(size.prefix(40))'")
            }
            configuration.importMaxBytes = bytes
        }
        if let flag = environment["INTRANET_ANONYMOUS_READ"], !flag.isEmpty {
            configuration.allowsAnonymousReading = try ConfigurationError.flag(flag, from: "INTRANET_ANONYMOUS_READ")
        }
        if let flag = environment["INTRANET_REQUIRE_SIGNATURE"], !flag.isEmpty {
            configuration.requiresSignature = try ConfigurationError.flag(flag, from: "INTRANET_REQUIRE_SIGNATURE")
        }
        if let size = environment["DATABASE_POOL_SIZE"], !size.isEmpty {
            guard let count = Int(size), (1...maxDatabasePoolSize).contains(count) else {
                throw ConfigurationError(
                    variable: "DATABASE_POOL_SIZE",
                    message: "must be a whole number of connections from 1 to \(maxDatabasePoolSize), not '\(size.prefix(40))'")
            }
            configuration.databasePoolSize = count
        }
        if let text = environment["STALENESS_BOUND_MS"], !text.isEmpty {
            guard let milliseconds = Int(text), stalenessBoundRange.contains(.milliseconds(milliseconds)) else {
                throw ConfigurationError(
                    variable: "STALENESS_BOUND_MS",
                    message: "must be a whole number of milliseconds from 50 to 60000, not '\(text.prefix(40))'")
            }
            configuration.stalenessBound = .milliseconds(milliseconds)
        }
        if let token = environment["METRICS_TOKEN"], !token.isEmpty {
            guard token.count >= 16, token.count <= 256, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw ConfigurationError(variable: "METRICS_TOKEN", message: "must be 16 to 256 printable ASCII characters without spaces")
            }
            configuration.metricsToken = token
        }
        if let text = environment["ACCESS_LOG"], !text.isEmpty {
            if text.lowercased() == "off" {
                configuration.accessLog = nil
            } else if let format = AccessLogFormat(rawValue: text.lowercased()) {
                configuration.accessLog = format
            } else {
                throw ConfigurationError(variable: "ACCESS_LOG", message: "must be logfmt, json or off, not '\(text.prefix(40))'")
            }
        }
        if let text = environment["SHUTDOWN_GRACE_SECONDS"], !text.isEmpty {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw ConfigurationError(
                    variable: "SHUTDOWN_GRACE_SECONDS",
                    message: "must be a number of seconds from 0 to 3600, not '\(text.prefix(40))'")
            }
            configuration.shutdownGrace = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let days = environment["INTRANET_SESSION_DAYS"], !days.isEmpty {
            guard let count = Double(days), count > 0, count <= 3650 else {
                throw ConfigurationError(variable: "INTRANET_SESSION_DAYS", message: "must be a number of days from 1 to 3650")
            }
            configuration.sessionLifetime = count * 24 * 3600
        }
        return configuration
    }
}

extension AppConfiguration.Storage {
    /// Reads `postgres://…` / `postgresql://…` or `sqlite:PATH`.
    public init(databaseURL url: String) throws {
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(url: url)
        } else if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else {
                throw ConfigurationError(variable: "DATABASE_URL", message: "sqlite: needs a file path, e.g. sqlite:intranet.sqlite")
            }
            self = .sqliteFile(path: path)
        } else {
            throw ConfigurationError(variable: "DATABASE_URL", message: "must start with postgres://, postgresql:// or sqlite:")
        }
    }
}

/// A setting that cannot be used, with the variable or flag it came from.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// The environment variable or flag that holds the bad value.
    public var variable: String
    /// What is wrong with it.
    public var message: String

    /// Creates a configuration error.
    public init(variable: String, message: String) {
        self.variable = variable
        self.message = message
    }

    /// `VARIABLE message`, for people.
    public var description: String { "\(variable) \(message)" }

    /// Parses `true` or `false` (also `1`/`0`, `yes`/`no`).
    public static func flag(_ text: String, from variable: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ConfigurationError(variable: variable, message: "must be true or false, not '\(text)'")
        }
    }

    /// Parses a TCP port number.
    public static func port(_ text: String, from variable: String) throws -> Int {
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw ConfigurationError(variable: variable, message: "must be a port number from 0 to 65535, not '\(text)'")
        }
        return port
    }
}

extension AppConfiguration {
    /// The host names of `EMBED_HOSTS`: letters, digits, dots and hyphens only, at most 50.
    ///
    /// - Throws: ``ConfigurationError`` naming the first bad entry.
    static func embedHosts(_ text: String) throws -> Set<String> {
        let hosts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        for host in hosts {
            let allowed = host.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            guard allowed, host.contains("."), host.count <= 253, !host.hasPrefix("."), !host.hasSuffix(".") else {
                throw ConfigurationError(variable: "EMBED_HOSTS", message: "must be host names separated by commas, e.g. www.youtube-nocookie.com; '\(host.prefix(60))' is not one")
            }
        }
        guard hosts.count <= 50 else {
            throw ConfigurationError(variable: "EMBED_HOSTS", message: "may name at most 50 hosts")
        }
        return Set(hosts)
    }
}
