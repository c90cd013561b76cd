import Foundation
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// One of two live server instances sharing a database, with its client.
struct ServerInstance: Sendable {
    var name: String
    var server: IntranetServer
    var client: any TestClientProtocol
}

/// Runs `body` with two live server instances sharing one fresh PostgreSQL schema, once both
/// change feeds are live.
func withTwoPostgresInstances(_ body: @Sendable (ServerInstance, ServerInstance) async throws -> Void) async throws {
    try await PostgresGate.shared.withPermit { try await runTwoInstances(body) }
}

private func runTwoInstances(_ body: @Sendable (ServerInstance, ServerInstance) async throws -> Void) async throws {
    let url = try #require(TestStorage.postgresURL)
    let schema = try await PostgresSchema.create()
    var configuration = AppConfiguration()
    configuration.storage = .postgres(url: url, schema: schema)
    configuration.port = 0
    configuration.logLevel = .warning
    configuration.passwordCost = 4
    configuration.databasePoolSize = 2
    configuration.accessLog = nil
    do {
        let first = try await makeServer(configuration)
        let second: IntranetServer
        do {
            try await TestUser.createAll(in: first)
            second = try await makeServer(configuration)
        } catch {
            await first.database.close()
            throw error
        }
        do {
            try await first.application.test(.live) { one in
                try await second.application.test(.live) { two in
                    try await waitUntil("both change feeds are live") { first.cache.trust.isTrusted && second.cache.trust.isTrusted }
                    try await body(ServerInstance(name: "one", server: first, client: one), ServerInstance(name: "two", server: second, client: two))
                }
            }
        } catch {
            await first.database.close()
            await second.database.close()
            throw error
        }
        await first.database.close()
        await second.database.close()
    } catch {
        try? await PostgresSchema.drop(schema)
        throw error
    }
    try await PostgresSchema.drop(schema)
}

/// Waits up to 15 s for `condition` (checked every 10 ms); fails the test after that.
func waitUntil(_ what: String, _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(15)
    while await !condition() {
        try #require(ContinuousClock.now < deadline, "timed out waiting until \(what)")
        try await Task.sleep(for: .milliseconds(10))
    }
}
