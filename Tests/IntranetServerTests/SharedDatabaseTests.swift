import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Several server instances on one PostgreSQL database", .enabled(if: TestStorage.postgresURL != nil, "needs INTRANET_TEST_POSTGRES_URL"))
struct SharedDatabaseTests {
    @Test("a write through one instance is read back through the other at once, cached reads included")
    func noStaleCache() async throws {
        let url = try #require(TestStorage.postgresURL)
        let schema = try await PostgresSchema.create()
        var configuration = AppConfiguration()
        configuration.storage = .postgres(url: url, schema: schema)
        configuration.logLevel = .warning
        do {
            let first = try await makeServer(configuration)
            let second = try await makeServer(configuration)
            try await first.application.test(.router) { one in
                try await second.application.test(.router) { two in
                    // Warm both caches.
                    _ = try await two.send(.get, "/announcements/2")
                    _ = try await two.send(.get, "/announcements")

                    let patched = try await one.send(.patch, "/announcements/2", json: #"{"title":"Changed on one"}"#)
                    let created = try await one.send(.post, "/announcements", json: #"{"title":"Made on one"}"#)
                    let detail = try await two.send(.get, "/announcements/2")
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
        } catch {
            try? await PostgresSchema.drop(schema)
            throw error
        }
        try await PostgresSchema.drop(schema)
    }
}
