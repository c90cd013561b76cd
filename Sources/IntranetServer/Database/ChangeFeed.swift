import FluentPostgresDriver
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Tells this instance about every change committed to a shared PostgreSQL database, by any
/// instance or tool, so it can keep answering from memory (cached answers, sessions) and still
/// see another instance's write within ``stalenessBound``.
///
/// How it works:
/// - Triggers on the announcement, reader, people, user and session tables
///   (``SplitChangeDomains``) send `<schema>:<domain>` (`announcements`, `people` or
///   `accounts`) on the channel ``channel`` when their transaction commits. The feed holds one
///   connection of its own listening there, and hands the domains of each change to
///   ``onChange`` (the ``ChangePipeline``, which lets go of what they made stale).
/// - Every ``pingInterval`` the feed sends a ping of its own on the same channel. PostgreSQL
///   delivers notifications in commit order, so when a ping comes back, every change committed
///   before it was sent has been handled: the feed then trusts memory (``ChangeTrust``) until
///   `sent + stalenessBound`. If pings stop coming back (the connection died, the database is
///   stuck), the trust runs out by itself and reads ask the database again (exact, slower).
/// - On each (re)connection, the first ping that comes back first drops everything remembered:
///   changes made while the feed was away were never announced.
final class ChangeFeed: Service, Sendable {
    /// The PostgreSQL notification channel every instance listens on.
    static let channel = "intranet_changes"
    /// The `application_name` of the feed's connection, as `pg_stat_activity` shows it
    /// (followed by ``instance``).
    static let applicationName = "intranet-server change feed"
    /// The default for ``stalenessBound``: 2 s. On a 2-core machine whose cores a load fills,
    /// PostgreSQL itself answers a trivial query up to about 1.5 s late at times
    /// (docs/postgresql.md, "Why the bound is 2 s"); a shorter bound then lapses under load and every read waits for the database.
    static let defaultStalenessBound = TimeAmount.seconds(2)

    /// Longest time a write made through another instance may go unseen here.
    let stalenessBound: TimeAmount
    /// How often the feed proves it is live: a fifth of the bound, at most 100 ms, so a ping may
    /// take the rest of the bound to come back before memory stops being trusted.
    let pingInterval: TimeAmount
    /// With no ping back for this long the connection is dropped and made again.
    let stallLimit: TimeAmount
    private let configuration: PostgresConnection.Configuration
    private let eventLoop: any EventLoop
    private let schema: String?
    private let trust: ChangeTrust
    private let onChange: @Sendable (Change) -> Void
    private let logger: Logger
    /// Tells this instance's pings and connection apart from other instances'.
    let instance = String(UUID().uuidString.prefix(8)).lowercased()
    private let connections = NIOLockedValueBox(0)

    /// - Parameters:
    ///   - configuration: how to connect to the database (``DatabaseService/postgresConnection``).
    ///   - eventLoop: where the feed's connection lives: the database's, so that HTTP traffic on
    ///     the server's loops never delays the pings.
    ///   - schema: the schema the tables live in, when not the connection's default.
    ///   - trust: extended while the feed is live, revoked when it is lost.
    ///   - stalenessBound: see ``stalenessBound``.
    ///   - logger: the server's logger.
    ///   - onChange: called, in commit order, with each change (its domains, and the account it
    ///     concerns when the trigger names one), and with every domain whenever the feed
    ///     (re)connects.
    init(
        configuration: PostgresConnection.Configuration, eventLoop: any EventLoop, schema: String?, trust: ChangeTrust,
        stalenessBound: TimeAmount = defaultStalenessBound, logger: Logger, onChange: @escaping @Sendable (Change) -> Void
    ) {
        var configuration = configuration
        configuration.options.additionalStartupParameters = [("application_name", "\(Self.applicationName) \(instance)")]
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.schema = schema
        self.trust = trust
        self.stalenessBound = stalenessBound
        self.pingInterval = .nanoseconds(min(max(stalenessBound.nanoseconds / 5, 1_000_000), 100_000_000))
        self.stallLimit = .nanoseconds(max(stalenessBound.nanoseconds * 4, 2_000_000_000))
        self.logger = logger
        self.onChange = onChange
    }

    /// Listens until the application shuts down, reconnecting (after 0.25 s, doubling up to 5 s
    /// while the database stays away) whenever the connection is lost.
    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var delay = TimeAmount.milliseconds(250)
            while !Task.isCancelled {
                let liveness = NIOLockedValueBox(false)
                do {
                    try await self.listen(liveness)
                } catch where !Task.isCancelled {
                    self.logger.warning(
                        "change feed down; reads ask the database until it is back",
                        metadata: ["error": "\(String(reflecting: error))"])
                }
                self.trust.revoke()
                if liveness.withLockedValue({ $0 }) { delay = .milliseconds(250) }
                try await Task.sleep(for: .nanoseconds(delay.nanoseconds))
                delay = min(delay * 2, .seconds(5))
            }
        }
        trust.revoke()
    }

    /// Connects, listens and pings until the connection fails; `liveness` becomes true once a
    /// ping came back.
    private func listen(_ liveness: NIOLockedValueBox<Bool>) async throws {
        let id = connections.withLockedValue { count in
            count += 1
            return count
        }
        let connection = try await PostgresConnection.connect(on: eventLoop, configuration: configuration, id: id, logger: logger)
        do {
            try await listen(on: connection, liveness: liveness)
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    private func listen(on connection: PostgresConnection, liveness: NIOLockedValueBox<Bool>) async throws {
        let schema: String
        if let configured = self.schema {
            schema = configured
        } else {
            guard !connection.isClosed else { throw ChangeFeedError.ended }
            let rows = try await connection.query("SELECT current_schema()", logger: logger)
            guard let name = try await rows.decode(String.self).first(where: { _ in true }) else {
                throw ChangeFeedError.noSchema
            }
            schema = name
        }
        // Pings need no durability: committed without waiting for a WAL flush, a slow disk
        // cannot delay them (and so end the trust for nothing).
        guard !connection.isClosed else { throw ChangeFeedError.ended }
        try await connection.query("SET synchronous_commit TO off", logger: logger)
        let prefix = schema + ":"
        let pingPrefix = prefix + "ping:" + instance + ":"
        let pings = PingLog()
        try await connection.listen(on: Self.channel) { notifications in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask(priority: .high) {
                    try await self.ping(on: connection, prefix: pingPrefix, log: pings)
                }
                group.addTask(priority: .high) {
                    try await self.watch(pings)
                }
                group.addTask(priority: .high) {
                    for try await notification in notifications {
                        let payload = notification.payload
                        guard payload.hasPrefix(prefix) else { continue }
                        let name = payload.dropFirst(prefix.count)
                        if let domain = ChangeDomain(name: name) {
                            self.onChange(Change(domains: ChangeDomains(domain), origin: .remote))
                        } else if let account = Self.account(named: name) {
                            // A user or their sessions changed (NameChangedAccounts).
                            self.onChange(Change(domains: .accounts, subjects: [.account(id: account, .changed)], origin: .remote))
                        } else if name == "content" {
                            // A trigger made before the domains were split (SplitChangeDomains).
                            self.onChange(Change(domains: [.announcements, .people], origin: .remote))
                        } else {
                            guard payload.hasPrefix(pingPrefix),
                                let number = UInt64(payload.dropFirst(pingPrefix.count)),
                                let sentAt = pings.answered(number)
                            else { continue }
                            if !liveness.withLockedValue({ $0 }) {
                                // Changes made while no feed listened were never announced.
                                self.onChange(Change(domains: .all, origin: .remote))
                                liveness.withLockedValue { $0 = true }
                                self.logger.info(
                                    "change feed live: writes through other instances are seen here within \(self.stalenessBound.nanoseconds / 1_000_000) ms")
                            }
                            self.trust.extend(until: sentAt + self.stalenessBound)
                        }
                    }
                    throw ChangeFeedError.ended
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// The account id of a notification `accounts:<id>`.
    static func account(named name: Substring) -> Int? {
        guard name.hasPrefix("accounts:") else { return nil }
        return Int(name.dropFirst("accounts:".count))
    }

    /// Sends a numbered ping every ``pingInterval``.
    ///
    /// The pings are not awaited here: PostgresNIO never completes a query written after its
    /// connection closed, and an await that never ends would keep this task group, and the
    /// server's shutdown, waiting for ever. A ping that fails or hangs is simply never answered,
    /// which ``watch(_:)`` notices.
    private func ping(on connection: PostgresConnection, prefix: String, log: PingLog) async throws {
        var number: UInt64 = 0
        let logger = self.logger
        while !connection.isClosed {
            number += 1
            log.sent(number, at: .now())
            let payload = prefix + String(number)
            Task(priority: .high) { _ = try? await connection.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger) }
            try await Task.sleep(for: .nanoseconds(pingInterval.nanoseconds))
        }
        throw ChangeFeedError.ended
    }

    /// Throws when a ping has gone unanswered for ``stallLimit`` (the connection may hang
    /// without failing, and the ping with it).
    private func watch(_ log: PingLog) async throws {
        while true {
            try await Task.sleep(for: .nanoseconds(pingInterval.nanoseconds))
            if let oldest = log.oldestUnanswered, NIODeadline.now() - oldest > stallLimit {
                throw ChangeFeedError.stalled
            }
        }
    }
}

/// The pings sent and not yet back.
private final class PingLog: Sendable {
    private let pending = NIOLockedValueBox<[UInt64: NIODeadline]>([:])

    func sent(_ number: UInt64, at deadline: NIODeadline) {
        pending.withLockedValue { $0[number] = deadline }
    }

    /// When ping `number` was sent, forgetting it and every earlier one.
    func answered(_ number: UInt64) -> NIODeadline? {
        pending.withLockedValue { pending in
            let sentAt = pending[number]
            pending = pending.filter { $0.key > number }
            return sentAt
        }
    }

    var oldestUnanswered: NIODeadline? {
        pending.withLockedValue { $0.values.min() }
    }
}

/// Why the change feed stopped.
enum ChangeFeedError: Error, CustomStringConvertible {
    case noSchema
    case ended
    case stalled

    var description: String {
        switch self {
        case .noSchema: "the connection has no current schema"
        case .ended: "the connection closed"
        case .stalled: "pings stopped coming back"
        }
    }
}
