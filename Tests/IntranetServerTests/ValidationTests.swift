import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Rejected writes")
struct ValidationTests {
    /// A write that must be refused with `status` on every test database, after which the list
    /// and announcement 2 read exactly as before.
    private func expectRejected(
        _ method: HTTPRequest.Method,
        _ path: String,
        headers: HTTPFields = [:],
        json: String?,
        status: HTTPResponse.Status,
        fields: [String] = [],
        configure: @escaping (inout AppConfiguration) -> Void = { _ in }
    ) async throws {
        for storage in TestStorage.all {
            try await expectRejected(method, path, headers: headers, json: json, status: status, fields: fields, on: storage, configure: configure)
        }
    }

    private func expectRejected(
        _ method: HTTPRequest.Method,
        _ path: String,
        headers: HTTPFields,
        json: String?,
        status: HTTPResponse.Status,
        fields: [String],
        on storage: TestStorage,
        configure: @escaping (inout AppConfiguration) -> Void
    ) async throws {
        try await withTestServer(storage, configure: configure) { _, client in
            let listBefore = try await client.send(.get, "/announcements?max=100", version: "1.0")
            let detailBefore = try await client.send(.get, "/announcements/2")

            let response = try await client.send(method, path, headers: headers, json: json)

            #expect(response.status == status)
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try response.object()
            #expect(problem["status"] as? Int == Int(status.code))
            let errors = problem["errors"] as? [[String: String]] ?? []
            #expect(errors.compactMap { $0["field"] } == fields)
            #expect(try await client.send(.get, "/announcements?max=100", version: "1.0").text == listBefore.text)
            #expect(try await client.send(.get, "/announcements/2").text == detailBefore.text)
        }
    }

    static let writes: [(HTTPRequest.Method, String)] = [(.post, "/announcements"), (.put, "/announcements/2"), (.patch, "/announcements/2")]

    @Test("broken JSON is 400", arguments: writes)
    func brokenJSON(method: HTTPRequest.Method, path: String) async throws {
        for json in [#"{"title":"x""#, "nope", "", #"{"title":"x",}"#, "[1,]", #"{"title":"x"}}"#] {
            try await expectRejected(method, path, json: json, status: .badRequest)
        }
    }

    @Test("well-formed JSON of the wrong shape is 422 naming each field", arguments: writes)
    func wrongShape(method: HTTPRequest.Method, path: String) async throws {
        try await expectRejected(method, path, json: #"{"title":5,"body":{"html":"x"}}"#, status: .unprocessableContent, fields: ["title", "body"])
        try await expectRejected(method, path, json: #"[{"title":"x"}]"#, status: .unprocessableContent, fields: ["$"])
        try await expectRejected(method, path, json: #""title""#, status: .unprocessableContent, fields: ["$"])
        try await expectRejected(method, path, json: #"{"title":true,"body":7}"#, status: .unprocessableContent, fields: ["title", "body"])
    }

    @Test("a missing title is 422 on POST and PUT", arguments: [(HTTPRequest.Method.post, "/announcements"), (.put, "/announcements/2")])
    func missingTitle(method: HTTPRequest.Method, path: String) async throws {
        try await expectRejected(method, path, json: #"{"body":"<p>x</p>"}"#, status: .unprocessableContent, fields: ["title"])
    }

    @Test("empty, white-space-only and 256-code-point titles are 422", arguments: writes)
    func badTitles(method: HTTPRequest.Method, path: String) async throws {
        for title in ["", "   ", "\n\t ", String(repeating: "é", count: 256), String(repeating: "a", count: 256)] {
            try await expectRejected(method, path, json: Body.object(["title": Body.string(title)]), status: .unprocessableContent, fields: ["title"])
        }
    }

    @Test("a title of 255 code points passes, even when each takes several bytes; titles are trimmed", arguments: TestStorage.all)
    func titleBoundaries(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let chinese = String(repeating: "公", count: 255)
            let emoji = String(repeating: "🎉", count: 255)

            let long = try await client.send(.post, "/announcements", json: Body.object(["title": Body.string(" \(chinese) ")]))
            let wide = try await client.send(.post, "/announcements", json: Body.object(["title": Body.string(emoji)]))

            #expect(long.status == .created)
            #expect(try long.object()["title"] as? String == chinese)
            #expect(wide.status == .created)
            #expect(try await client.send(.get, "/announcements/8").object()["title"] as? String == emoji)
        }
    }

    @Test("bodies of 256+ characters and null bodies pass; a body over 1,000,000 bytes is 422")
    func bodies() async throws {
        try await withTestServer { _, client in
            let long = String(repeating: "<p>Long body.</p>", count: 5_000)

            let accepted = try await client.send(.post, "/announcements", json: Body.object(["title": #""x""#, "body": Body.string(long)]))
            let null = try await client.send(.post, "/announcements", json: #"{"title":"x","body":null}"#)

            #expect(accepted.status == .created)
            #expect(try accepted.object()["body"] as? String == long)
            #expect(null.status == .created)
        }
        let tooLong = String(repeating: "é", count: 500_001)
        try await expectRejected(.post, "/announcements", json: Body.object(["title": #""x""#, "body": Body.string(tooLong)]), status: .unprocessableContent, fields: ["body"])
    }

    @Test("unknown keys and server-owned keys are ignored")
    func ignoredKeys() async throws {
        try await withTestServer { _, client in
            let json = #"{"id":99,"title":"T","createdAt":"2000-01-01T00:00:00.000Z","updatedAt":"x","color":"red","readers":[1]}"#

            let response = try await client.send(.post, "/announcements", json: json)

            #expect(response.status == .created)
            let created = try response.object()
            #expect(created["id"] as? Int == 7)
            #expect((created["createdAt"] as? String)?.hasPrefix("2000") == false)
            #expect(created["color"] == nil)
        }
    }

    @Test("a body that is not JSON is 415", arguments: writes)
    func unsupportedMediaType(method: HTTPRequest.Method, path: String) async throws {
        for type in ["text/plain", "application/xml", "application/json; charset=latin1"] {
            try await expectRejected(method, path, headers: [.contentType: type], json: #"{"title":"x"}"#, status: .unsupportedMediaType)
        }
        try await expectRejected(method, path, json: nil, status: .unsupportedMediaType)
    }

    @Test("merge-patch+json is accepted only by PATCH")
    func mergePatchMediaTypeOnPost() async throws {
        try await expectRejected(.post, "/announcements", headers: [.contentType: "application/merge-patch+json"], json: #"{"title":"x"}"#, status: .unsupportedMediaType)
    }

    @Test("a body over the limit is 413", arguments: writes)
    func tooLarge(method: HTTPRequest.Method, path: String) async throws {
        let big = Body.object(["title": #""x""#, "body": Body.string(String(repeating: "a", count: 3 * 1024 * 1024))])
        try await expectRejected(method, path, json: big, status: .contentTooLarge)
        let small = Body.object(["title": #""x""#, "body": Body.string(String(repeating: "a", count: 2_000))])
        try await expectRejected(method, path, json: small, status: .contentTooLarge, configure: { $0.maxBodySize = 1_000 })
    }
}
