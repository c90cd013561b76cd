import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Reading announcements")
struct AnnouncementReadTests {
    @Test("the 1.0 list has all six seeded items, each with exactly id, title and a non-empty body", arguments: TestStorage.all)
    func versionOneList(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let response = try await client.send(.get, "/announcements", version: "1.0")

            #expect(response.status == .ok)
            let items = try response.objects()
            #expect(items.count == 6)
            #expect(items.compactMap { $0["id"] as? Int } == [1, 2, 3, 4, 5, 6])
            for item in items {
                #expect(Set(item.keys) == ["id", "title", "body"])
                let body = try #require(item["body"] as? String)
                #expect(!body.isEmpty)
            }
        }
    }

    @Test("the 2.0 list has six items with exactly the keys id and title", arguments: TestStorage.all)
    func versionTwoList(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let response = try await client.send(.get, "/announcements", version: "2.0")

            let items = try response.objects()
            #expect(items.count == 6)
            for item in items {
                #expect(Set(item.keys) == ["id", "title"])
            }
        }
    }

    @Test("the detail of id 2 has its body under both versions, with the keys each version promises", arguments: TestStorage.all)
    func detailShapes(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let v1 = try await client.send(.get, "/announcements/2", version: "1.0").object()
            let v2 = try await client.send(.get, "/announcements/2", version: "2.0").object()

            #expect(Set(v1.keys) == ["id", "title", "body"])
            #expect(Set(v2.keys) == ["id", "title", "body", "createdAt", "updatedAt"])
            #expect((v1["body"] as? String)?.contains("Harbour Building") == true)
            #expect(v1["body"] as? String == v2["body"] as? String)
            let created = try #require(v2["createdAt"] as? String)
            #expect(created.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        }
    }

    @Test("the trailing-slash list and the .json detail answer like the plain routes")
    func alternativePaths() async throws {
        try await withTestServer { _, client in
            let slash = try await client.send(.get, "/announcements/")
            let plain = try await client.send(.get, "/announcements")
            let dotJSON = try await client.send(.get, "/announcements/2.json")
            let detail = try await client.send(.get, "/announcements/2")

            #expect(slash.status == .ok)
            #expect(slash.text == plain.text)
            #expect(dotJSON.status == .ok)
            #expect(dotJSON.text == detail.text)
        }
    }

    @Test("an unknown or non-integer id is 404 with a problem body", arguments: ["/announcements/999", "/announcements/abc", "/announcements/0", "/announcements/-1", "/announcements/2.xml", "/announcements/99999999999999999999999"])
    func missing(path: String) async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, path)

            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(try response.object()["status"] as? Int == 404)
        }
    }

    @Test("a detail carries an ETag, and If-None-Match with it answers 304 without a body")
    func conditionalGet() async throws {
        try await withTestServer { _, client in
            let first = try await client.send(.get, "/announcements/2")
            let etag = try #require(first.headers[.eTag])

            let second = try await client.send(.get, "/announcements/2", headers: [.ifNoneMatch: etag])
            let other = try await client.send(.get, "/announcements/2", headers: [.ifNoneMatch: "\"nope\""])

            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(second.status == .notModified)
            #expect(second.body.readableBytes == 0)
            #expect(second.headers[.eTag] == etag)
            #expect(other.status == .ok)
        }
    }

    @Test("the 1.0 and 2.0 details of one announcement have different ETags")
    func etagPerVersion() async throws {
        try await withTestServer { _, client in
            let v1 = try await client.send(.get, "/announcements/2", version: "1.0")
            let v2 = try await client.send(.get, "/announcements/2", version: "2.0")

            #expect(v1.headers[.eTag] != nil)
            #expect(v1.headers[.eTag] != v2.headers[.eTag])
        }
    }

    @Test("a list carries an ETag that answers 304 until the list changes")
    func listETag() async throws {
        try await withTestServer { _, client in
            let etag = try #require(try await client.send(.get, "/announcements").headers[.eTag])

            let unchanged = try await client.send(.get, "/announcements", headers: [.ifNoneMatch: etag])
            _ = try await client.send(.post, "/announcements", json: #"{"title":"New"}"#)
            let changed = try await client.send(.get, "/announcements", headers: [.ifNoneMatch: etag])

            #expect(unchanged.status == .notModified)
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
        }
    }

    @Test("HEAD answers like GET without a body")
    func head() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.head, "/announcements/2")

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] != nil)
            #expect(response.body.readableBytes == 0)
        }
    }
}
