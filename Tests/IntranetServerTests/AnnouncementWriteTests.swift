import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Writing announcements")
struct AnnouncementWriteTests {
    @Test("POST answers 201 with Location, ETag and the detail; the new item reads back", arguments: TestStorage.all)
    func create(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let response = try await client.send(.post, "/announcements", json: #"{"title":"  Fire drill  ","body":"<p>Thursday</p>"}"#)

            #expect(response.status == .created)
            #expect(response.headers[.location] == "/announcements/7")
            let etag = try #require(response.headers[.eTag])
            let created = try response.object()
            #expect(created["id"] as? Int == 7)
            #expect(created["title"] as? String == "Fire drill")
            #expect(
                Set(created.keys) == [
                    "id", "title", "body", "createdAt", "updatedAt", "readers", "audience", "markdown", "status", "publishAt", "expiresAt", "pinned",
                    "pinnedUntil", "important", "acknowledgement", "attachments",
                ])
            #expect(created["status"] as? String == "published" && created["pinned"] as? Bool == false)
            let read = try await client.send(.get, "/announcements/7", as: .editor)
            #expect(read.text == response.text)
            #expect(read.headers[.eTag] == etag)
        }
    }

    @Test("POST, PUT and PATCH store the body only as the sanitiser writes it")
    func bodiesAreSanitised() async throws {
        try await withTestServer { _, client in
            let hostile = #"<p onclick=\"steal()\">Hi<script>alert(1)</script> <a href=\"javascript:x()\">there</a></p><iframe src=\"https://evil.test\"></iframe>"#
            let safe = #"<p>Hi <a>there</a></p>"#
            let created = try await client.send(.post, "/announcements", json: #"{"title":"Sanitised","body":"\#(hostile)"}"#)
            #expect(created.status == .created)
            #expect(try created.object()["body"] as? String == safe)
            let location = try #require(created.headers[.location])
            #expect(try await client.send(.get, location, as: .editor).object()["body"] as? String == safe)

            let replaced = try await client.send(.put, location, json: #"{"title":"Sanitised","body":"<img src=x onerror=alert(1)>"}"#)
            #expect(try replaced.object()["body"] as? String == #"<img src="x">"#)
            let patched = try await client.send(
                .patch, location, headers: [.contentType: "application/merge-patch+json"],
                json: #"{"body":"<b>ok</b><style>*{}</style>"}"#)
            #expect(try patched.object()["body"] as? String == "<b>ok</b>")
            let harmless = try await client.send(.post, "/announcements", json: #"{"title":"Plain","body":"<p>Tom &amp; Jerry</p>"}"#)
            #expect(try harmless.object()["body"] as? String == "<p>Tom &amp; Jerry</p>")
        }
    }

    @Test("POST under 1.0 answers the 1.0 detail shape")
    func createVersionOne() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.post, "/announcements", version: "1.0", json: #"{"title":"T"}"#)

            #expect(try Set(response.object().keys) == ["id", "title", "body"])
            #expect(try response.object()["body"] is NSNull)
        }
    }

    @Test("PUT replaces the whole announcement: an absent body becomes null", arguments: TestStorage.all)
    func replace(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let before = try await client.send(.get, "/announcements/2")

            let response = try await client.send(.put, "/announcements/2", json: #"{"title":"Moved"}"#)

            #expect(response.status == .ok)
            let updated = try response.object()
            #expect(updated["title"] as? String == "Moved")
            #expect(updated["body"] is NSNull)
            #expect(response.headers[.eTag] != before.headers[.eTag])
            let after = try await client.send(.get, "/announcements/2").object()
            #expect(after["body"] is NSNull)
            #expect(after["createdAt"] as? String == (try before.object()["createdAt"] as? String))
        }
    }

    @Test("PUT to a missing id is 404 and creates nothing")
    func replaceMissing() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.put, "/announcements/77", json: #"{"title":"Ghost"}"#)

            #expect(response.status == .notFound)
            #expect(try await client.send(.get, "/announcements/77").status == .notFound)
            #expect(try await client.send(.get, "/announcements").headers[.total] == "6")
        }
    }

    @Test("PATCH merges: absent keys stay, null clears the body", arguments: TestStorage.all)
    func mergePatch(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let original = try await client.send(.get, "/announcements/2").object()

            let titleOnly = try await client.send(
                .patch, "/announcements/2", headers: [.contentType: "application/merge-patch+json"], json: #"{"title":"New title"}"#)
            let cleared = try await client.send(.patch, "/announcements/2", json: #"{"body":null}"#)

            #expect(titleOnly.status == .ok)
            #expect(try titleOnly.object()["body"] as? String == original["body"] as? String)
            #expect(try titleOnly.object()["title"] as? String == "New title")
            #expect(cleared.status == .ok)
            #expect(try cleared.object()["body"] is NSNull)
            #expect(try cleared.object()["title"] as? String == "New title")
        }
    }

    @Test("PATCH with a null title is 422 and changes nothing")
    func patchNullTitle() async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements/2")

            let response = try await client.send(.patch, "/announcements/2", json: #"{"title":null,"body":"x"}"#)

            #expect(response.status == .unprocessableContent)
            let errors = try #require(try response.object()["errors"] as? [[String: String]])
            #expect(errors == [["field": "title", "message": "must not be null"]])
            #expect(try await client.send(.get, "/announcements/2").text == before.text)
        }
    }

    @Test("DELETE answers 204 with an empty body; the item is gone from detail and list", arguments: TestStorage.all)
    func delete(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            _ = try await client.send(.get, "/announcements")

            let response = try await client.send(.delete, "/announcements/3")

            #expect(response.status == .noContent)
            #expect(response.body.readableBytes == 0)
            #expect(try await client.send(.get, "/announcements/3").status == .notFound)
            let list = try await client.send(.get, "/announcements")
            #expect(try list.objects().compactMap { $0["id"] as? Int } == [1, 2, 4, 5, 6])
            #expect(try await client.send(.delete, "/announcements/3").status == .notFound)
        }
    }

    @Test("a stale If-Match is 412 on PUT, PATCH and DELETE, and nothing changes", arguments: [
        HTTPRequest.Method.put, .patch, .delete,
    ])
    func staleIfMatch(method: HTTPRequest.Method) async throws {
        try await withTestServer { _, client in
            let stale = try #require(try await client.send(.get, "/announcements/2").headers[.eTag])
            _ = try await client.send(.patch, "/announcements/2", json: #"{"title":"Someone else"}"#)
            let before = try await client.send(.get, "/announcements/2")

            let response = try await client.send(method, "/announcements/2", headers: [.ifMatch: stale], json: #"{"title":"Mine"}"#)

            #expect(response.status == .preconditionFailed)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(try await client.send(.get, "/announcements/2").text == before.text)
        }
    }

    @Test("a current If-Match (from either version) lets the write through; * matches any existing item")
    func currentIfMatch() async throws {
        try await withTestServer { _, client in
            let v1Tag = try #require(try await client.send(.get, "/announcements/2", version: "1.0").headers[.eTag])

            let first = try await client.send(.patch, "/announcements/2", headers: [.ifMatch: v1Tag], json: #"{"title":"A"}"#)
            let star = try await client.send(.put, "/announcements/2", headers: [.ifMatch: "*"], json: #"{"title":"B"}"#)
            let starMissing = try await client.send(.delete, "/announcements/99", headers: [.ifMatch: "*"])
            let weak = try await client.send(.delete, "/announcements/2", headers: [.ifMatch: "W/" + (star.headers[.eTag] ?? "")])

            #expect(first.status == .ok)
            #expect(star.status == .ok)
            #expect(starMissing.status == .notFound)
            #expect(weak.status == .preconditionFailed)
        }
    }

    @Test("a method a route does not serve is 405 with Allow; OPTIONS lists the methods")
    func methodNotAllowed() async throws {
        try await withTestServer { _, client in
            let onCollection = try await client.send(.delete, "/announcements")
            let onItem = try await client.send(.post, "/announcements/2")
            let options = try await client.send(.options, "/announcements/2")

            #expect(onCollection.status == .methodNotAllowed)
            #expect(onCollection.headers[.allow] == "GET, HEAD, POST")
            #expect(onCollection.headers[.contentType] == "application/problem+json")
            #expect(onItem.status == .methodNotAllowed)
            #expect(onItem.headers[.allow] == "GET, HEAD, PUT, PATCH, DELETE")
            #expect(options.status == .noContent)
            #expect(options.headers[.allow] == "GET, HEAD, PUT, PATCH, DELETE")
        }
    }

    @Test("a method no route serves (TRACE, PROPFIND, PURGE) is 405 with Allow on a path that exists, 404 elsewhere",
          arguments: ["TRACE", "PROPFIND", "PURGE"])
    func unknownMethods(method: String) async throws {
        try await withTestServer(mode: .live) { _, client in
            let method = try #require(HTTPRequest.Method(method))
            for (path, allow) in [
                ("/announcements", "GET, HEAD, POST"), ("/announcements/2", "GET, HEAD, PUT, PATCH, DELETE"),
                ("/announcements/999", "GET, HEAD, PUT, PATCH, DELETE"), ("/health", "GET, HEAD"), ("/login", "POST"),
            ] {
                let answer = try await client.send(method, path)
                #expect(answer.status == .methodNotAllowed, "\(method) \(path)")
                #expect(answer.headers[.allow] == allow, "\(method) \(path)")
                #expect(answer.headers[.contentType] == "application/problem+json")
            }
            #expect(try await client.send(method, "/nowhere").status == .notFound)
            #expect(try await client.send(method, "/announcements/2/extra").status == .notFound)
        }
    }
}
