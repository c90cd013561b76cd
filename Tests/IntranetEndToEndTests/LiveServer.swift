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
func withLiveServer(_ body: @Sendable (URL) async throws -> Void) async throws {
    try await withStoppableLiveServer { url, _ in try await body(url) }
}

/// Runs `body` against a live server that `body` may stop (`await stop()`): from then on its
/// port refuses connections, as a server out of reach does.
func withStoppableLiveServer(_ body: @Sendable (URL, _ stop: @Sendable () async -> Void) async throws -> Void) async throws {
    var configuration = AppConfiguration()
    configuration.port = 0
    configuration.storage = .sqliteInMemory
    configuration.logLevel = .warning
    configuration.accessLog = nil
    // Stopping waits at most this long for open connections (a client's idle keep-alive).
    configuration.shutdownGrace = .seconds(1)
    configuration.passwordCost = 4
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
        try await body(try #require(URL(string: "http://127.0.0.1:\(port)")), stop)
    } catch {
        await shutdown()
        throw error
    }
    await shutdown()
}
