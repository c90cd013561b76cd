import Foundation
import IntranetAPI
import Synchronization
import Testing
@testable import IntranetServer

/// A server on an SQLite file that a test stops and starts again on the same port.
final class RestartableServer: Sendable {
    let file: String
    private let state = Mutex<(port: Int, running: Task<Void, any Error>?)>((0, nil))

    init() {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("ack-\(UUID().uuidString).sqlite").path
    }

    var url: URL { URL(string: "http://127.0.0.1:\(state.withLock { $0.port })")! }

    /// Starts it (on the port it had, after the first start).
    func start() async throws {
        var configuration = AppConfiguration()
        configuration.port = state.withLock { $0.port }
        configuration.storage = .sqliteFile(path: file)
        configuration.logLevel = .warning
        configuration.accessLog = nil
        configuration.shutdownGrace = .seconds(1)
        configuration.passwordCost = 4
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let server = try await makeServer(configuration) { port in
            sink.yield(port)
            sink.finish()
        }
        let accounts = FluentAccountRepository(database: server.database.database)
        if try await accounts.countUsers() == 0 {
            let hash = try await PasswordHasher(cost: 4).hash(liveTestPassword)
            for (name, role) in [("admin", UserRole.admin), ("editor", .editor), ("reader", .reader)] {
                _ = try await accounts.createUser(username: name, displayName: name.capitalized, role: role, passwordHash: hash)
            }
        }
        let running = Task { try await server.application.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        state.withLock { $0 = (port, running) }
    }

    /// Stops it: its port refuses connections until it starts again.
    func stop() async {
        let running = state.withLock { $0.running }
        running?.cancel()
        _ = await running?.result
    }
}
