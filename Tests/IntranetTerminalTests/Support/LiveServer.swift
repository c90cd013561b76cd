import ChildProcess
import Synchronization
import Foundation
import Logging
import Testing
@testable import IntranetServer

/// The editor account every live test server has.
enum LiveEditor {
    static let username = "editor"
    static let password = "correct horse battery"
}

/// The admin account every live test server has.
enum LiveAdmin {
    static let username = "admin"
    static let password = "staple admin battery"
}

/// A running test server: its URL, and a way to register apps for signed requests.
struct LiveServer: Sendable {
    let url: URL
    /// Registers an app as `intranet-server apps create NAME` does; its id and secret.
    let registerApp: @Sendable (String) async throws -> (appID: String, secret: String)
    /// Stops the server: from then on its port refuses connections, as an unreachable server's.
    let stop: @Sendable () async -> Void
}

/// Runs `body` against a freshly seeded intranet server on a free loopback port (in-memory
/// SQLite) with one editor account (``LiveEditor``), then stops the server.
func withLiveServer<Result: Sendable>(_ body: @Sendable (URL) async throws -> Result) async throws -> Result {
    try await withLiveAccountServer { server in try await body(server.url) }
}

/// Like ``withLiveServer(_:)``, with an admin account (``LiveAdmin``) too, and optionally
/// requiring signed requests (`INTRANET_REQUIRE_SIGNATURE=true`).
func withLiveAccountServer<Result: Sendable>(
    requiringSignature: Bool = false, _ body: @Sendable (LiveServer) async throws -> Result
) async throws -> Result {
    var configuration = AppConfiguration()
    configuration.port = 0
    configuration.storage = .sqliteInMemory
    configuration.logLevel = .warning
    configuration.accessLog = nil
    // Stopping waits at most this long for open connections (a client's idle keep-alive).
    configuration.shutdownGrace = .seconds(1)
    configuration.requiresSignature = requiringSignature
    // Sign-ins check passwords at the lowest bcrypt cost: the suite signs in hundreds of times
    // on two cores, and cost 12 made other tests' servers miss their deadlines.
    configuration.passwordCost = 4
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let server = try await makeServer(configuration) { port in
        portSink.yield(port)
        portSink.finish()
    }
    let accounts = FluentAccountRepository(database: server.database.database)
    let hasher = PasswordHasher(cost: 4)
    _ = try await accounts.createUser(
        username: LiveEditor.username, displayName: "Eddie Editor", role: .editor,
        passwordHash: try await hasher.hash(LiveEditor.password))
    _ = try await accounts.createUser(
        username: LiveAdmin.username, displayName: "Ada Admin", role: .admin,
        passwordHash: try await hasher.hash(LiveAdmin.password))
    let registry = SigningAppRegistry(database: server.database.database)
    let running = Task { try await server.application.runService() }
    var iterator = ports.makeAsyncIterator()
    let port = await iterator.next()
    // Once stopped, the port stays bound (refusing connections) until the test ends, so no
    // other test's server can answer in its place.
    let hold = Mutex<PortHold?>(nil)
    let shutdown: @Sendable () async -> Void = {
        running.cancel()
        _ = await running.result
    }
    let stop: @Sendable () async -> Void = {
        await shutdown()
        guard let port, hold.withLock({ $0 == nil }) else { return }
        // Connections the server is still closing keep the port busy for a moment.
        for _ in 0..<100 {
            if let claimed = PortHold(port: port) {
                hold.withLock { $0 = claimed }
                return
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("port \(port) could not be held after the server stopped")
    }
    guard let port else {
        await shutdown()
        throw LiveServerFailure.didNotStart
    }
    do {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let result = try await body(LiveServer(url: url, registerApp: { try await registry.register(name: $0) }, stop: stop))
        await shutdown()
        return result
    } catch {
        await shutdown()
        throw error
    }
}

enum LiveServerFailure: Error {
    case didNotStart
}
