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

        /// Where the data lives, as the start-up log says it: never a password or user name.
        public var summary: String {
            switch self {
            case .sqliteFile(let path): return "SQLite file \(path)"
            case .sqliteInMemory: return "SQLite in memory"
            case .postgres(let url, let schema):
                let parts = URLComponents(string: url)
                let host = parts?.host ?? "?"
                let port = parts?.port.map { ":\($0)" } ?? ""
                let name = parts?.path ?? ""
                return "PostgreSQL at \(host)\(port)\(name)" + (schema.map { " (schema \($0))" } ?? "")
            }
        }
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
    /// Most bytes of one attached file (`ATTACHMENT_MAX_BYTES`; 100 MiB by default).
    public var attachmentMaxBytes = defaultAttachmentMaxBytes
    /// Most bytes all stored files may take together (`ATTACHMENT_QUOTA_BYTES`); `nil`, the
    /// default, for no limit but the disk's.
    public var attachmentQuotaBytes: Int64?
    /// Most pixels an uploaded image may have, all frames counted (`ATTACHMENT_MAX_PIXELS`;
    /// 50 million by default): a larger one is refused before it is decoded.
    public var attachmentMaxPixels = ImageProcessor.defaultMaxPixels
    /// The default of ``attachmentMaxBytes``: 100 MiB.
    public static let defaultAttachmentMaxBytes: Int64 = 100 << 20
    /// 256 MiB: real exports are tens of megabytes, and years of a busy site a few hundred.
    public static let defaultImportMaxBytes = 256 * 1024 * 1024
    /// Hosts whose `https` pages may be embedded in announcement bodies (`<iframe>`), e.g.
    /// `www.youtube-nocookie.com` (`EMBED_HOSTS`, comma-separated); empty (the default) removes
    /// every `iframe`. Web pages allow frames from exactly these hosts.
    public var embedHosts: Set<String> = []
    /// The time zone web pages show times in and read the editor's form in
    /// (`INTRANET_TIME_ZONE`, an IANA name such as `Europe/Lisbon`; UTC by default). The API
    /// always speaks RFC 3339 instants; the terminal uses its own machine's zone.
    public var timeZone = TimeZone(identifier: "UTC")!
    /// Whether the web front end's cookies are marked `Secure` (`INTRANET_SECURE_COOKIES`):
    /// set it when browsers reach the server over HTTPS (through a proxy, say).
    public var secureCookies = false
    /// The server's log level; each request is logged at `debug`.
    public var logLevel = Logger.Level.info
    /// Whether signed-out callers may read unrestricted announcements.
    public var allowsAnonymousReading = true
    /// Whether every request must be signed by a registered app (docs/api.md, "Signed requests").
    public var requiresSignature = false
    /// How long a session token lasts, in seconds (30 days by default).
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// The bcrypt cost of stored passwords.
    public var passwordCost: UInt8 = 12
    /// How many PostgreSQL connections one server instance keeps open, in total
    /// (`DATABASE_POOL_SIZE`); SQLite always uses one (writes are serialised in the process).
    public var databasePoolSize = defaultDatabasePoolSize
    /// The pool size when none is configured, chosen from `scripts/bench-server` on 2-core
    /// machines (docs/speed.md, "PostgreSQL pool size").
    public static let defaultDatabasePoolSize = 8
    /// The largest pool size accepted.
    public static let maxDatabasePoolSize = 256
    /// On PostgreSQL, the longest a write (or a logout, a role change) made through another
    /// instance may go unseen by this one (`STALENESS_BOUND_MS`; 2 s by default). Shorter means
    /// fresher, but whenever the database answers this instance's change-feed pings later than
    /// the bound allows, reads ask the database again until it catches up (docs/postgresql.md).
    public var stalenessBound = Duration(ChangeFeed.defaultStalenessBound)
    /// The shortest and longest ``stalenessBound`` accepted.
    public static let stalenessBoundRange = Duration.milliseconds(50)...Duration.seconds(60)
    /// How long a session found in the database is used without asking again
    /// (``SessionRememberingAccountRepository``); `nil`: until it expires or a change forgets it
    /// (changes made by other processes reach the server through ``RevisionWatcher`` on SQLite,
    /// the change feed on PostgreSQL). Tests set it.
    var sessionRecheckInterval: Duration?
    /// Most answers the response cache keeps, and their bytes (``ResponseCache``).
    var answerCacheLimits = CacheLimits(entries: 10_000, bytes: 64 << 20)
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
    /// `ATTACHMENT_MAX_BYTES`, `ATTACHMENT_QUOTA_BYTES`, `ATTACHMENT_MAX_PIXELS`,
    /// `INTRANET_ANONYMOUS_READ`, `INTRANET_REQUIRE_SIGNATURE` (`true`/`false`),
    /// `INTRANET_SESSION_DAYS`, `EMBED_HOSTS` (comma-separated host names),
    /// `INTRANET_SECURE_COOKIES` (`true`/`false`), `INTRANET_TIME_ZONE` (an IANA zone name). Every setting is read the same way
    /// (``SettingsReader``): absent or empty keeps the default, and every flag takes `true` or
    /// `false`, `1` or `0`, `yes` or `no`, in any case.
    ///
    /// - Throws: ``ConfigurationError`` naming the variable that holds a bad value.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AppConfiguration {
        let settings = SettingsReader(values: environment)
        var configuration = AppConfiguration()
        if let host = settings.text("HOST") { configuration.host = host }
        if let port = try settings.parsed("PORT", "must be a port number from 0 to 65535", { Int($0).flatMap { (0...65_535).contains($0) ? $0 : nil } }) {
            configuration.port = port
        }
        if let url = settings.text("DATABASE_URL") { configuration.storage = try Storage(databaseURL: url) }
        if let level = try settings.choice("LOG_LEVEL", [
            "trace": Logger.Level.trace, "debug": .debug, "info": .info, "notice": .notice, "warning": .warning, "error": .error,
            "critical": .critical,
        ]) { configuration.logLevel = level }
        if let hosts = settings.text("EMBED_HOSTS") { configuration.embedHosts = try Self.embedHosts(hosts) }
        if let secure = try settings.flag("INTRANET_SECURE_COOKIES") { configuration.secureCookies = secure }
        if let zone = try settings.parsed("INTRANET_TIME_ZONE", "must be an IANA time zone name such as Europe/Lisbon or UTC", {
            TimeZone(identifier: $0)
        }) { configuration.timeZone = zone }
        if let bytes = try settings.integer("MAX_BODY_SIZE", in: 1...Int.max, "bytes") { configuration.maxBodySize = bytes }
        if let bytes = try settings.integer("IMPORT_MAX_BYTES", in: 1 << 20...4 << 30, "bytes (1 MiB to 4 GiB)") {
            configuration.importMaxBytes = bytes
        }
        if let bytes = try settings.integer("ATTACHMENT_MAX_BYTES", in: 1...(64 << 30), "bytes (at most 64 GiB)") {
            configuration.attachmentMaxBytes = Int64(bytes)
        }
        if let bytes = try settings.integer("ATTACHMENT_QUOTA_BYTES", in: 1...Int.max, "bytes") { configuration.attachmentQuotaBytes = Int64(bytes) }
        if let pixels = try settings.integer("ATTACHMENT_MAX_PIXELS", in: 1...1_000_000_000, "pixels (at most 1 billion)") {
            configuration.attachmentMaxPixels = pixels
        }
        if let anonymous = try settings.flag("INTRANET_ANONYMOUS_READ") { configuration.allowsAnonymousReading = anonymous }
        if let signed = try settings.flag("INTRANET_REQUIRE_SIGNATURE") { configuration.requiresSignature = signed }
        if let count = try settings.integer("DATABASE_POOL_SIZE", in: 1...maxDatabasePoolSize, "connections") {
            configuration.databasePoolSize = count
        }
        if let milliseconds = try settings.integer("STALENESS_BOUND_MS", in: 50...60_000, "milliseconds") {
            configuration.stalenessBound = .milliseconds(milliseconds)
        }
        if let token = try settings.parsed("METRICS_TOKEN", "must be 16 to 256 printable ASCII characters without spaces", secret: true, { token in
            token.count >= 16 && token.count <= 256 && token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) ? token : nil
        }) { configuration.metricsToken = token }
        if let format = try settings.choice("ACCESS_LOG", ["logfmt": AccessLogFormat?.some(.logfmt), "json": .some(.json), "off": .none]) {
            configuration.accessLog = format
        }
        if let seconds = try settings.number("SHUTDOWN_GRACE_SECONDS", in: 0...3600, "seconds") {
            configuration.shutdownGrace = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let days = try settings.parsed("INTRANET_SESSION_DAYS", "must be a number of days above 0, at most 3650", {
            Double($0).flatMap { $0.isFinite && $0 > 0 && $0 <= 3650 ? $0 : nil }
        }) {
            configuration.sessionLifetime = days * 24 * 3600
        }
        return configuration
    }
}
