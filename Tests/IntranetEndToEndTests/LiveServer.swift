import ChildProcess
import Synchronization
import Foundation
import Logging
import IntranetAPI
import IntranetClient
import Testing
@testable import IntranetServer

/// A client for `url` signed in as `username`.
func signedInClient(_ url: URL, as username: String, version: APIVersion = .v2_0, format: WireFormat = .json) async throws -> IntranetClient {
    let client = IntranetClient(baseURL: url, apiVersion: version, format: format)
    _ = try await client.session.login(username: username, password: liveTestPassword)
    return client
}

/// The accounts every live test server has, all with the password ``liveTestPassword``.
let liveTestPassword = "correct horse battery"

/// Runs `body` against a freshly seeded intranet server listening on a free loopback port,
/// with the accounts `admin` (id 1), `editor` (2) and `reader` (3), then shuts the server down.
///
/// - Parameter configure: changes the server's settings (limits, signed requests) before it starts.
func withLiveServer(
    configure: @Sendable (inout AppConfiguration) -> Void = { _ in }, _ body: @Sendable (URL) async throws -> Void
) async throws {
    try await withStoppableLiveServer(configure: configure) { url, _ in try await body(url) }
}

/// Runs `body` against a live server that takes only signed requests, with the key of an app
/// registered on it.
func withSigningLiveServer(_ body: @escaping @Sendable (URL, AppSigningKey) async throws -> Void) async throws {
    try await withLiveServer(configure: { $0.requiresSignature = true }, { _, _ in }, registering: body)
}

/// Runs `body` against a live server that `body` may stop (`await stop()`): from then on its
/// port refuses connections, as a server out of reach does.
///
/// - Parameter configure: changes the server's settings before it starts.
func withStoppableLiveServer(
    configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
    _ body: @Sendable (URL, _ stop: @Sendable () async -> Void) async throws -> Void
) async throws {
    try await withLiveServer(configure: configure, body, registering: nil)
}

/// The one way a live server is run: `stoppable` gets the URL and a way to stop the server;
/// `registering`, when given, runs instead with the key of an app registered on the server.
private func withLiveServer(
    configure: @Sendable (inout AppConfiguration) -> Void,
    _ stoppable: @Sendable (URL, _ stop: @Sendable () async -> Void) async throws -> Void,
    registering: (@Sendable (URL, AppSigningKey) async throws -> Void)?
) async throws {
    var configuration = AppConfiguration()
    configuration.port = 0
    configuration.storage = .sqliteInMemory
    configuration.logLevel = .warning
    configuration.accessLog = nil
    // Stopping waits at most this long for open connections (a client's idle keep-alive).
    configuration.shutdownGrace = .seconds(1)
    configuration.passwordCost = 4
    configure(&configuration)
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let server = try await makeServer(configuration) { port in
        portSink.yield(port)
        portSink.finish()
    }
    let accounts = FluentAccountRepository(database: server.database.database)
    let hash = try await PasswordHasher(cost: 4).hash(liveTestPassword)
    for (name, role) in [("admin", UserRole.admin), ("editor", .editor), ("reader", .reader)] {
        _ = try await accounts.createUser(username: name, displayName: name.capitalized, role: role, passwordHash: hash)
    }
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
        Issue.record("the server did not start")
        return
    }
    do {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        if let registering {
            let (appID, secret) = try await SigningAppRegistry(database: server.database.database).register(name: "end-to-end tests")
            try await registering(url, AppSigningKey(appID: appID, secret: secret))
        } else {
            try await stoppable(url, stop)
        }
    } catch {
        await shutdown()
        throw error
    }
    await shutdown()
}
