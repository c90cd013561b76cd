import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Several server instances on one PostgreSQL database", .enabled(if: TestStorage.postgresURL != nil, "needs INTRANET_TEST_POSTGRES_URL"))
struct SharedDatabaseTests {
    @Test("a write through one instance is read back through the other at once, cached reads included")
    func noStaleCache() async throws {
        try await withTwoInstances { one, two in
            // Warm both caches.
            _ = try await two.send(.get, "/announcements/2", as: .editor)
            _ = try await two.send(.get, "/announcements")

            let patched = try await one.send(.patch, "/announcements/2", json: #"{"title":"Changed on one"}"#)
            let created = try await one.send(.post, "/announcements", json: #"{"title":"Made on one"}"#)
            let detail = try await two.send(.get, "/announcements/2", as: .editor)
            let list = try await two.send(.get, "/announcements")

            #expect(patched.status == .ok)
            #expect(created.status == .created)
            #expect(try detail.object()["title"] as? String == "Changed on one")
            #expect(detail.headers[.eTag] == patched.headers[.eTag])
            #expect(list.headers[.total] == "7")
            #expect(try list.objects().last?["title"] as? String == "Made on one")

            let tag = try #require(detail.headers[.eTag])
            _ = try await two.send(.delete, "/announcements/2", headers: [.ifMatch: tag])
            #expect(try await one.send(.get, "/announcements/2").status == .notFound)
        }
    }

    @Test("a token from one instance works on the other, logout on one ends it on both, and they share the lockout count")
    func sharedSessions() async throws {
        try await withTwoInstances { one, two in
            let login = try await one.send(.post, "/login", json: #"{"username":"editor","password":"correct horse battery"}"#, as: .anonymous)
            let token = try #require(try login.object()["token"] as? String)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]

            let meOnOneBefore = try await one.send(.get, "/users/me", headers: bearer)
            let meOnTwo = try await two.send(.get, "/users/me", headers: bearer)
            _ = try await two.send(.post, "/logout", headers: bearer)
            let meOnOne = try await one.send(.get, "/users/me", headers: bearer)
            for client in [one, two, one, two, one] {
                _ = try await client.send(.post, "/login", json: #"{"username":"reader","password":"wrong wrong"}"#, as: .anonymous)
            }
            let locked = try await two.send(.post, "/login", json: #"{"username":"reader","password":"correct horse battery"}"#, as: .anonymous)

            #expect(meOnOneBefore.status == .ok)  // instance one has seen the token just before
            #expect(meOnTwo.status == .ok)
            #expect(meOnOne.status == .unauthorized)
            #expect(locked.status == .tooManyRequests)
        }
    }

    /// Runs `body` with clients of two server instances sharing one fresh PostgreSQL schema.
    private func withTwoInstances(
        _ body: @Sendable (any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        let url = try #require(TestStorage.postgresURL)
        let schema = try await PostgresSchema.create()
        var configuration = AppConfiguration()
        configuration.storage = .postgres(url: url, schema: schema)
        configuration.logLevel = .warning
        configuration.passwordCost = 4
        do {
            let first = try await makeServer(configuration)
            try await TestUser.createAll(in: first)
            let second = try await makeServer(configuration)
            try await first.application.test(.router) { one in
                try await second.application.test(.router) { two in
                    try await body(one, two)
                }
            }
        } catch {
            try? await PostgresSchema.drop(schema)
            throw error
        }
        try await PostgresSchema.drop(schema)
    }
}
