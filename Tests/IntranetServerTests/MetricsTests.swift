import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// `GET /metrics`: Prometheus text, behind the operator's token, counting early answers too.
@Suite("Metrics")
struct MetricsTests {
    static let token = "metrics-token-0123456789"

    @Test("every request is counted by route template, method, status and where it was answered; logins, sessions and the cache too")
    func counts() async throws {
        try await withTestServer(mode: .live, configure: { $0.metricsToken = Self.token }) { _, client in
            _ = try await client.send(.get, "/announcements/2", as: .anonymous)
            _ = try await client.send(.get, "/announcements/2", as: .anonymous)
            _ = try await client.send(.get, "/announcements/3", as: .anonymous)
            _ = try await client.send(.get, "/no/such/place", as: .anonymous)
            let failed = try await client.send(.post, "/login", json: #"{"username":"reader","password":"not the password"}"#, as: .anonymous)
            #expect(failed.status == .unauthorized)

            let answer = try await client.send(.get, "/metrics", headers: [.authorization: "Bearer \(Self.token)"], as: .anonymous)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let values = Self.samples(answer.text)
            let detail = #"route="/announcements/{id}",method="GET",status="200""#
            #expect(values[#"http_requests_total{\#(detail),answered="application"}"#] == 2, "\(answer.text)")
            #expect(values[#"http_requests_total{\#(detail),answered="early"}"#] == 1)
            #expect(values[#"http_requests_total{route="unmatched",method="GET",status="404",answered="application"}"#] == 1)
            #expect(values[#"http_requests_total{route="/login",method="POST",status="401",answered="application"}"#] == 1)
            #expect(values[#"http_request_duration_seconds_count{route="/announcements/{id}",method="GET"}"#] == 3)
            #expect(values[#"intranet_cache_lookups_total{cache="early",result="hit"}"#] == 1)
            #expect(values["intranet_failed_logins_total"] == 1)
            #expect((values[#"intranet_cache_entries{cache="answers"}"#] ?? 0) >= 2)  // a route entry and an early answer
            #expect((values[#"intranet_cache_bytes{cache="answers"}"#] ?? 0) > 0)
            #expect(values[#"intranet_cache_entries_limit{cache="answers"}"#] == 10_000)
            #expect(values[#"intranet_cache_evictions_total{cache="answers"}"#] == 0)
            #expect(values[#"intranet_cache_entries_limit{cache="sessions"}"#] == 100_000)
            #expect(values[#"intranet_cache_evictions_total{cache="sessions"}"#] == 0)
            #expect(values["intranet_active_sessions"] == Double(TestUser.allCases.count))
            #expect(values["intranet_database_pool_connections"] == 1)
            #expect(values["intranet_database_pool_in_use"] == 0, "nothing else runs while the metrics are written")
            #expect((values["intranet_database_pool_in_use_peak"] ?? 0) >= 1)
        }
    }

    @Test("stored files are counted once per content, with their bytes")
    func storedFiles() async throws {
        try await withTestServer(configure: { $0.metricsToken = Self.token }) { _, client in
            func values() async throws -> [String: Double] {
                Self.samples(try await client.send(.get, "/metrics", headers: [.authorization: "Bearer \(Self.token)"], as: .anonymous).text)
            }
            #expect(try await values()["intranet_stored_files"] == 0)
            let pdf = Data("%PDF-1.4 ".utf8) + Data(repeating: 7, count: 4_991)
            _ = try await client.attach(pdf, name: "a.pdf", to: 1)
            _ = try await client.attach(pdf, name: "b.pdf", to: 2)
            let after = try await values()
            #expect(after["intranet_stored_files"] == 1, "the same content twice is one file")
            #expect(after["intranet_stored_file_bytes"] == 5_000)
        }
    }

    @Test("imports through the API are counted: imported, dry runs, refused files, and the posts by outcome")
    func imports() async throws {
        try await withTestServer(configure: { $0.metricsToken = Self.token }) { _, client in
            let export = try WordPressImportTests.fixture("harbour-2024.xml")
            _ = try await WordPressImportTests.post(export, query: "?dryRun=true", client: client)
            _ = try await WordPressImportTests.post(export, client: client)
            _ = try await WordPressImportTests.post(export, client: client)
            let refused = try await WordPressImportTests.post(Data("not xml".utf8), client: client)
            #expect(refused.status == .badRequest)

            let answer = try await client.send(.get, "/metrics", headers: [.authorization: "Bearer \(Self.token)"], as: .anonymous)
            let values = Self.samples(answer.text)
            #expect(values[#"intranet_imports_total{result="dry_run"}"#] == 1, "\(answer.text)")
            #expect(values[#"intranet_imports_total{result="imported"}"#] == 2)
            #expect(values[#"intranet_imports_total{result="failed"}"#] == 1)
            #expect(values[#"intranet_imported_posts_total{outcome="created"}"#] == 9)
            #expect(values[#"intranet_imported_posts_total{outcome="unchanged"}"#] == 9)
        }
    }

    @Test("only the metrics token opens it: none, a wrong one or a user's session token is 401")
    func protected() async throws {
        try await withTestServer(configure: { $0.metricsToken = Self.token }) { _, client in
            let none = try await client.send(.get, "/metrics", as: .anonymous)
            let wrong = try await client.send(.get, "/metrics", headers: [.authorization: "Bearer metrics-token-0123456788"], as: .anonymous)
            let session = try await client.send(.get, "/metrics", as: .admin)
            for answer in [none, wrong, session] {
                #expect(answer.status == .unauthorized)
                #expect(!answer.text.contains("http_requests_total"))
            }
        }
    }

    @Test("without METRICS_TOKEN it is off: 404, and nothing is counted")
    func off() async throws {
        try await withTestServer { server, client in
            let answer = try await client.send(.get, "/metrics", headers: [.authorization: "Bearer \(Self.token)"], as: .anonymous)
            #expect(answer.status == .notFound)
            #expect(answer.text.contains("METRICS_TOKEN"))
        }
    }

    @Test("METRICS_TOKEN must be 16 to 256 printable characters without spaces", arguments: [
        ("0123456789abcdef", true), ("short", false), ("has a space in it here", false), (String(repeating: "x", count: 257), false),
    ])
    func setting(token: String, accepted: Bool) throws {
        if accepted {
            #expect(try AppConfiguration.fromEnvironment(["METRICS_TOKEN": token]).metricsToken == token)
        } else {
            let error = #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["METRICS_TOKEN": token]) }
            #expect(error?.variable == "METRICS_TOKEN")
            #expect(error.map { !$0.description.contains(token) } == true, "the message must not echo the token")
        }
        #expect(try AppConfiguration.fromEnvironment([:]).metricsToken == nil)
    }

    /// `name{labels} value` lines, comments left out.
    static func samples(_ text: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }
}
