import Foundation
import Logging
import Testing
@testable import IntranetServer

/// Runs `body` against a freshly seeded intranet server listening on a free loopback port,
/// then shuts the server down.
func withLiveServer(_ body: @Sendable (URL) async throws -> Void) async throws {
    var configuration = AppConfiguration()
    configuration.port = 0
    configuration.storage = .sqliteInMemory
    configuration.logLevel = .warning
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let server = try await makeServer(configuration) { port in
        portSink.yield(port)
        portSink.finish()
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.application.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next(), "the server did not start")
        do {
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
        } catch {
            group.cancelAll()
            throw error
        }
        group.cancelAll()
    }
}
