import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// Signed-in web pages answered on the event loop: the page of a view and role is kept once,
/// as the application offered it, and filled in for each browser with its own name, CSRF token
/// and tag.
@Suite("Signed-in pages answered early")
struct EarlyPageTests {
    static func page(_ path: String, token: String, extra: HTTPFields = [:], client: some TestClientProtocol) async throws -> TestResponse {
        var headers: HTTPFields = [.cookie: "\(WebCookies.session)=\(token)", .accept: browserAccept]
        headers.append(contentsOf: extra)
        return try await client.execute(uri: path, method: .get, headers: headers, body: nil)
    }

    /// The header fields an answer carries, less those of one exchange.
    static func fields(_ response: TestResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for field in response.headers where field.name != .date && field.name != .requestID {
            fields[field.name.canonicalName] = field.value
        }
        return fields
    }

    @Test("an early page is byte for byte the application's for that person: their name, CSRF token and tag; a 304 for their own tag")
    func filledPerPerson() async throws {
        try await withTestServer(mode: .live) { server, client in
            let third = try await SharedViewTests.newReader("third", client: client)
            let fourth = try await SharedViewTests.newReader("fourth", client: client)
            // The third reader's first request looks the session up; the second is the
            // application's answer, whose page is kept for their view and role.
            _ = try await Self.page("/", token: third, client: client)
            let thirdByApplication = try await Self.page("/", token: third, client: client)
            // The fourth reader, of the same view: the application's answer first (their
            // session is new), then early ones.
            let hits = server.cache.publicAnswerHits
            let fourthByApplication = try await Self.page("/", token: fourth, client: client)
            #expect(server.cache.publicAnswerHits == hits, "an unknown session is the application's")
            let fourthEarly = try await Self.page("/", token: fourth, client: client)
            let thirdEarly = try await Self.page("/", token: third, client: client)
            #expect(server.cache.publicAnswerHits == hits + 2, "not answered early")

            #expect(fourthEarly.body == fourthByApplication.body && Self.fields(fourthEarly) == Self.fields(fourthByApplication))
            #expect(thirdEarly.body == thirdByApplication.body && Self.fields(thirdEarly) == Self.fields(thirdByApplication))
            #expect(fourthEarly.text.contains(WebCookies.csrfToken(forSession: fourth)) && fourthEarly.text.contains(">fourth "))
            #expect(!fourthEarly.text.contains(WebCookies.csrfToken(forSession: third)) && !fourthEarly.text.contains(">third "))
            #expect(fourthEarly.headers[.eTag] != thirdEarly.headers[.eTag])
            #expect(fourthEarly.headers[.contentLength] == String(fourthEarly.body.readableBytes))

            // Revalidation: early with the person's own tag, as the application answers it for
            // a session it looks up first (a fifth reader's first request).
            let fifth = try await SharedViewTests.newReader("fifth", client: client)
            let fifthTag = try #require(try await Self.page("/", token: fifth, client: client).headers[.eTag])
            let fifthPage = try await Self.page("/", token: fifth, client: client)
            #expect(fifthPage.headers[.eTag] == fifthTag)
            let early304Hits = server.cache.publicAnswerHits
            let early304 = try await Self.page("/", token: fifth, extra: [.ifNoneMatch: fifthTag], client: client)
            #expect(server.cache.publicAnswerHits == early304Hits + 1)
            #expect(early304.status == .notModified && early304.body.readableBytes == 0)
            let sixth = try await SharedViewTests.newReader("sixth", client: client)
            let sixthTag = try #require(try await Self.page("/", token: sixth, client: client).headers[.eTag])
            _ = try await client.send(.post, "/logout", headers: [.authorization: "Bearer \(sixth)"], as: .anonymous)
            let relogin = try await client.send(.post, "/login", json: #"{"username":"sixth","password":"a long enough password"}"#, as: .anonymous)
            let sixthAgain = try #require(try relogin.object()["token"] as? String)
            let tagAgain = try #require(try await Self.page("/", token: sixthAgain, client: client).headers[.eTag])
            #expect(tagAgain != sixthTag, "a new session has a new CSRF token, so a new tag")
            // Someone else's tag is not theirs: the whole page.
            let notMine = try await Self.page("/", token: fifth, extra: [.ifNoneMatch: tagAgain], client: client)
            #expect(notMine.status == .ok && notMine.text.contains(">fifth "))
            let seventh = try await SharedViewTests.newReader("seventh", client: client)
            let seventhTag = try #require(try await Self.page("/", token: seventh, client: client).headers[.eTag])
            // Forget the seventh session's lookup: the revalidation goes to the application.
            let seventhID = try #require(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(seventh)"], as: .anonymous).object()["id"] as? Int)
            server.sessions.forget(accounts: [seventhID])
            let application304Hits = server.cache.publicAnswerHits
            let application304 = try await Self.page("/", token: seventh, extra: [.ifNoneMatch: seventhTag], client: client)
            #expect(server.cache.publicAnswerHits == application304Hits)
            #expect(application304.status == .notModified)
            var earlyFields = Self.fields(early304)
            var applicationFields = Self.fields(application304)
            #expect(earlyFields.removeValue(forKey: "etag") == fifthTag && applicationFields.removeValue(forKey: "etag") == seventhTag)
            #expect(earlyFields == applicationFields)
        }
    }

    @Test("pages are kept per view and role: an admin's page is never an editor's, a restricted post never reaches another view")
    func perViewAndRole() async throws {
        try await withTestServer(mode: .live) { server, client in
            _ = try await client.send(.post, "/announcements", json: #"{"title":"Restricted memo","readers":[3]}"#)
            for _ in 0..<3 {
                for user in [TestUser.editor, .admin, .reader, .otherReader] { _ = try await Self.page("/", token: user.token, client: client) }
            }
            let hits = server.cache.publicAnswerHits
            let editor = try await Self.page("/", token: TestUser.editor.token, client: client)
            let admin = try await Self.page("/", token: TestUser.admin.token, client: client)
            let reader = try await Self.page("/", token: TestUser.reader.token, client: client)
            let other = try await Self.page("/", token: TestUser.otherReader.token, client: client)
            #expect(server.cache.publicAnswerHits == hits + 4)
            #expect(admin.text.contains(#"href="/users""#) && !editor.text.contains(#"href="/users""#))
            #expect(editor.text.contains("Restricted memo") && admin.text.contains("Restricted memo") && reader.text.contains("Restricted memo"))
            #expect(!other.text.contains("Restricted memo"))
        }
    }

    @Test("a logout, a role change or other cookies: the next page is the application's, and right")
    func sessionChangesCountAtOnce() async throws {
        try await withTestServer(mode: .live) { server, client in
            let third = try await SharedViewTests.newReader("third", client: client)
            for _ in 0..<3 { _ = try await Self.page("/", token: third, client: client) }
            // A sign-in form's CSRF cookie beside the session changes nothing: early.
            var hits = server.cache.publicAnswerHits
            let withOther = try await Self.page("/", token: third, extra: [.cookie: "\(WebCookies.csrf)=\(String(repeating: "a", count: 64))"], client: client)
            #expect(server.cache.publicAnswerHits == hits + 1 && withOther.text.contains(">third "))
            // Without a session, cookies are the application's to read.
            hits = server.cache.publicAnswerHits
            _ = try await client.execute(uri: "/", method: .get, headers: [.cookie: "\(WebCookies.csrf)=x", .accept: browserAccept], body: nil)
            _ = try await client.execute(uri: "/", method: .get, headers: [.cookie: "\(WebCookies.csrf)=x", .accept: browserAccept], body: nil)
            #expect(server.cache.publicAnswerHits == hits)

            // A role change: the next page is the editor's.
            let id = try #require(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(third)"], as: .anonymous).object()["id"] as? Int)
            #expect(try await client.send(.patch, "/users/\(id)", json: #"{"role":"editor"}"#, as: .admin).status == .ok)
            let asEditor = try await Self.page("/", token: third, client: client)
            #expect(asEditor.text.contains(#"<span class="role">(editor)</span>"#) && !asEditor.text.contains("(reader)"))
            // A write to what the page shows: the next page shows it, whoever answers.
            for _ in 0..<2 { _ = try await Self.page("/", token: TestUser.reader.token, client: client) }
            #expect(try await client.send(.patch, "/announcements/2", json: #"{"title":"Moved to the fifth floor"}"#).status == .ok)
            for _ in 0..<2 {
                #expect(try await Self.page("/", token: TestUser.reader.token, client: client).text.contains("Moved to the fifth floor"))
            }
            // A logout: signed out at once, early or not.
            #expect(try await client.send(.post, "/logout", headers: [.authorization: "Bearer \(third)"], as: .anonymous).status == .noContent)
            let after = try await Self.page("/", token: third, client: client)
            #expect(!after.text.contains(">third ") && !after.text.contains(WebCookies.csrfToken(forSession: third)))
        }
    }
}

/// An item's address with query parameters its answer never reads (a newsletter's
/// `utm_source`, a cache-busting `_=`) shares the item's kept answer.
@Suite("Items shared across unread query parameters")
struct ItemQueryTests {
    /// The answer's header fields and body, less what belongs to one exchange.
    static func answer(_ target: String, _ headers: HTTPFields, client: some TestClientProtocol) async throws -> (status: HTTPResponse.Status, fields: [String: String], body: ByteBuffer) {
        let response = try await client.execute(uri: target, method: .get, headers: headers, body: nil)
        return (response.status, EarlyPageTests.fields(response), response.body)
    }

    @Test("an item's answer (JSON, Spearal, filtered, its page) is the same with unread parameters, and answered early from the plain one")
    func itemsIgnoreUnreadParameters() async throws {
        try await withTestServer(mode: .live) { server, client in
            let person = try #require(try await client.send(.get, "/people", as: .anonymous).objects().first?["id"] as? Int)
            let variants: [(String, HTTPFields)] = [
                ("/announcements/2", [.acceptVersion: "2.0"]),
                ("/announcements/2", [.accept: "application/spearal"]),
                ("/announcements/2?fields=title", [.acceptVersion: "2.0"]),
                ("/announcements/2", [.accept: browserAccept]),
                ("/people/\(person)?expand=manager", [.acceptVersion: "2.0"]),
                ("/people/\(person)", [.accept: browserAccept]),
            ]
            for (target, headers) in variants {
                let plain = try await Self.answer(target, headers, client: client)
                #expect(plain.status == .ok, "\(target)")
                let decoratedTarget = target + (target.contains("?") ? "&" : "?") + "utm_source=newsletter&_=1700000000"
                // The application's answer with the unread parameters is the item's own…
                server.cache.changes.committed(Change(domains: .all))
                var hits = server.cache.publicAnswerHits
                let byApplication = try await Self.answer(decoratedTarget, headers, client: client)
                #expect(server.cache.publicAnswerHits == hits, "\(target): the cache was not emptied")
                #expect(byApplication.fields == plain.fields && byApplication.body == plain.body, "\(target)")
                // …so it is kept for the plain address too, and the next decorated one.
                hits = server.cache.publicAnswerHits
                let plainEarly = try await Self.answer(target, headers, client: client)
                let decoratedEarly = try await Self.answer(target + (target.contains("?") ? "&" : "?") + "_=1700000001", headers, client: client)
                #expect(server.cache.publicAnswerHits == hits + 2, "\(target): not answered early")
                #expect(plainEarly.body == plain.body && decoratedEarly.body == plain.body && decoratedEarly.fields == plain.fields, "\(target)")
            }
            let plain = try await Self.answer("/announcements/2", [.acceptVersion: "2.0"], client: client)
            // A filter is read: another answer.
            let filtered = try await Self.answer("/announcements/2?fields=title&utm_source=x", [.acceptVersion: "2.0"], client: client)
            #expect(filtered.body != plain.body)
            // A list carries what it does not know into its paging links: an answer of its own.
            let list = try await client.execute(uri: "/announcements?max=2&utm_source=x", method: .get, headers: [.acceptVersion: "2.0"], body: nil)
            #expect(list.headers[.link]?.contains("utm_source=x") == true)
        }
    }
}
