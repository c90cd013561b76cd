import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("API version negotiation")
struct VersioningTests {
    @Test("a request naming no version gets the latest, 3.0", arguments: TestStorage.all)
    func defaultVersion(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let response = try await client.send(.get, "/announcements")

            #expect(response.headers[.apiVersion] == "3.0")
            #expect(
                Set(try response.objects().first?.keys ?? [:].keys)
                    == ["id", "title", "createdAt", "updatedAt", "status", "publishAt", "expiresAt", "pinned", "pinnedUntil", "important", "acknowledgement"])
        }
    }

    @Test("Accept: application/json;v=1.0 selects version 1.0")
    func mediaTypeParameter() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements", headers: [.accept: "application/json;v=1.0"])

            #expect(response.headers[.apiVersion] == "1.0")
            #expect(Set(try response.objects().first?.keys ?? [:].keys) == ["id", "title", "body"])
        }
    }

    @Test("Accept-Version wins over the v parameter of Accept")
    func headerWins() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(
                .get, "/announcements/2", version: "2.0", headers: [.accept: "application/json; v=1.0"])

            #expect(response.headers[.apiVersion] == "2.0")
            #expect(try response.object()["createdAt"] != nil)
        }
    }

    @Test("an unknown version is 406 with the supported versions", arguments: ["4.0", "1", "v1", "abc", "2.00", "1.0,2.0"])
    func unknownVersion(asked: String) async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements", headers: [.acceptVersion: asked])

            #expect(response.status == .notAcceptable)
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try response.object()
            #expect(problem["supportedVersions"] as? [String] == ["1.0", "2.0", "3.0"])
            #expect(problem["status"] as? Int == 406)
        }
    }

    @Test("an unknown version in the Accept parameter is 406 too")
    func unknownVersionInAccept() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements", headers: [.accept: "application/json;v=4.0"])

            #expect(response.status == .notAcceptable)
            #expect(try response.object()["supportedVersions"] as? [String] == ["1.0", "2.0", "3.0"])
        }
    }

    @Test("an Accept header that allows no JSON is 406")
    func acceptWithoutJSON() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements", headers: [.accept: "text/html"])
            let wildcard = try await client.send(.get, "/announcements", headers: [.accept: "text/html, */*;q=0.1"])

            #expect(response.status == .notAcceptable)
            #expect(wildcard.status == .ok)
        }
    }

    @Test("every versioned answer, errors included, carries API-Version and Vary", arguments: [
        (HTTPRequest.Method.get, "/announcements"), (.get, "/announcements/2"), (.get, "/announcements/999"),
        (.post, "/announcements"), (.delete, "/announcements/999"), (.put, "/announcements"),
    ])
    func versionHeaders(method: HTTPRequest.Method, path: String) async throws {
        try await withTestServer { _, client in
            let response = try await client.send(method, path, version: "1.0")

            #expect(response.headers[.apiVersion] == "1.0")
            #expect(response.headers[.vary] == "Accept, Accept-Version, Spearal-PropertyFilter")
        }
    }

    @Test("a 406 still says Vary, so caches keep versions apart")
    func varyOnNotAcceptable() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements", version: "9.9")

            #expect(response.headers[.vary] == "Accept, Accept-Version, Spearal-PropertyFilter")
        }
    }
}
