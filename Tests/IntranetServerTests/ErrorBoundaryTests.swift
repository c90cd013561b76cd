import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Errors never leak internals")
struct ErrorBoundaryTests {
    @Test("a database failure is a 500 problem body that names nothing internal, and its request id is in the log")
    func internalFailure() async throws {
        let (logger, log) = RecordingLogHandler.logger(level: .info)
        try await withTestServer(logger: logger) { server, client in
            await server.database.databases.shutdownAsync()

            let response = try await client.send(.get, "/announcements/4")

            #expect(response.status == .internalServerError)
            #expect(response.headers[.contentType] == "application/problem+json")
            let requestID = try #require(response.headers[.requestID])
            let problem = try response.object()
            #expect(Set(problem.keys) == ["type", "title", "status", "detail"])
            let text = response.text.lowercased()
            for leak in ["select", "sqlite", "fluent", "pool", "error(", ".swift", "/tmp", "/work", "announcements\"", "nio"] {
                #expect(!text.contains(leak), "the body names \(leak): \(response.text)")
            }
            let logged = log.all.filter { $0.contains(requestID) && $0.hasPrefix("error") }
            #expect(logged.count == 1, "log: \(log.all)")
        }
    }

    @Test("health answers 200 while the database answers and 503 once it is gone")
    func health() async throws {
        try await withTestServer { server, client in
            let healthy = try await client.send(.get, "/health")

            await server.database.databases.shutdownAsync()
            let broken = try await client.send(.get, "/health")

            #expect(healthy.status == .ok)
            #expect(try healthy.object()["status"] as? String == "ok")
            #expect(broken.status == .serviceUnavailable)
            #expect(broken.headers[.contentType] == "application/problem+json")
        }
    }

    @Test("every answer carries an X-Request-Id, and a plain id sent by a proxy is kept")
    func requestIDs() async throws {
        try await withTestServer { _, client in
            let first = try await client.send(.get, "/announcements/2")
            let second = try await client.send(.get, "/announcements/2")
            let proxied = try await client.send(.get, "/nowhere", headers: [.requestID: "lb-1234"])
            let hostile = try await client.send(.get, "/health", headers: [.requestID: "bad id\u{7F}"])

            #expect(first.headers[.requestID]?.wholeMatch(of: /[0-9a-f]{16,32}/) != nil)
            #expect(first.headers[.requestID] != second.headers[.requestID])
            #expect(proxied.headers[.requestID] == "lb-1234")
            #expect(hostile.headers[.requestID] != "bad id\u{7F}")
        }
    }

    @Test("an unknown path is a 404 problem body")
    func unknownPath() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/admin/secrets")

            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(try response.object()["status"] as? Int == 404)
        }
    }
}
