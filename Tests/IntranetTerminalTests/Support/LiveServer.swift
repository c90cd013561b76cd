import Foundation
import Logging
import Testing
@testable import IntranetServer

/// The editor account every live test server has.
enum LiveEditor {
    static let username = "editor"
    static let password = "correct horse battery"
}

/// Runs `body` against a freshly seeded intranet server on a free loopback port (in-memory
/// SQLite) with one editor account (``LiveEditor``), then stops the server.
func withLiveServer<Result: Sendable>(_ body: @Sendable (URL) async throws -> Result) async throws -> Result {
    var configuration = AppConfiguration()
    configuration.port = 0
    configuration.storage = .sqliteInMemory
    configuration.logLevel = .warning
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let server = try await makeServer(configuration) { port in
        portSink.yield(port)
        portSink.finish()
    }
    let accounts = FluentAccountRepository(database: server.database.database)
    let hash = try await PasswordHasher(cost: 4).hash(LiveEditor.password)
    _ = try await accounts.createUser(username: LiveEditor.username, displayName: "Eddie Editor", role: .editor, passwordHash: hash)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.application.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next(), "the server did not start")
        do {
            let result = try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
            group.cancelAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}
