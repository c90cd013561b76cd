import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// `GET /feed.atom` and the personal feed tokens.
@Suite("Atom feeds")
struct AtomFeedTests {
    @Test("the public feed holds what signed-out readers see, newest first, escaped; it answers 304 to its tag", arguments: TestStorage.all)
    func publicFeed(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            _ = try await client.send(.post, "/announcements", json: #"{"title":"Fish & <chips> \u0007today","body":"<p>Friday</p><script>alert(1)</script>"}"#)
            _ = try await client.send(.post, "/announcements", json: #"{"title":"Board only","readers":[\#(TestUser.reader.id)]}"#)
            _ = try await client.send(.post, "/announcements", json: #"{"title":"Not yet","status":"draft"}"#)
            let feed = try await client.send(.get, "/feed.atom")
            #expect(feed.status == .ok)
            #expect(feed.headers[.contentType] == "application/atom+xml; charset=utf-8")
            #expect(feed.headers[.cacheControl] == "public, no-cache")
            let text = feed.text
            #expect(text.hasPrefix(#"<?xml version="1.0" encoding="utf-8"?>"# + "\n" + #"<feed xmlns="http://www.w3.org/2005/Atom">"#))
            let titles = text.matches(of: /<title type="text">([^<]*)<\/title>/).map { String($0.1) }
            #expect(titles.first == "Fish &amp; &lt;chips&gt; today", "newest first, escaped, the control character left out")
            #expect(!titles.contains("Board only") && !titles.contains("Not yet"))
            #expect(titles.count == 7)
            #expect(text.contains("&lt;p&gt;Friday&lt;/p&gt;") && !text.contains("alert"), "the sanitised body")
            let ids = text.matches(of: /<id>(urn:uuid:[0-9a-f-]{36})<\/id>/).map { String($0.1) }
            #expect(Set(ids).count == 8, "a feed id and one per entry, all different")

            let again = try await client.send(.get, "/feed.atom", headers: [.ifNoneMatch: try #require(feed.headers[.eTag])])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
        }
    }

    @Test("a personal feed shows the account's restricted posts; making a new token ends the old one, revoking ends it, and a deleted account's feed goes with it")
    func personalFeed() async throws {
        try await withTestServer { _, client in
            _ = try await client.send(.post, "/announcements", json: #"{"title":"Board only","readers":[\#(TestUser.reader.id)]}"#)
            let made = try await client.send(.post, "/users/me/feed-token", as: .reader)
            #expect(made.status == .created)
            #expect(made.headers[.cacheControl] == "no-store")
            let first = try #require(try made.object()["url"] as? String)
            #expect(first.hasPrefix("/feed.atom?token="))
            let personal = try await client.send(.get, first)
            #expect(personal.status == .ok)
            #expect(personal.headers[.cacheControl] == "private, no-cache")
            #expect(personal.text.contains("Board only"))
            #expect(try await client.send(.get, first, as: .user(.otherReader)).text.contains("Board only"), "the token decides, not who asks")

            let remade = try await client.send(.post, "/users/me/feed-token", as: .reader)
            let second = try #require(try remade.object()["url"] as? String)
            #expect(try await client.send(.get, first).status == .notFound, "the old token ended")
            #expect(try await client.send(.get, second).status == .ok)
            #expect(try await client.send(.delete, "/users/me/feed-token", as: .reader).status == .noContent)
            #expect(try await client.send(.get, second).status == .notFound)
            #expect(try await client.send(.get, "/feed.atom?token=nonsense").status == .notFound)
            #expect(try await client.send(.get, "/feed.atom?token=a&token=b").status == .badRequest)
            #expect(try await client.send(.post, "/users/me/feed-token", as: .anonymous).status == .unauthorized)

            let third = try #require(try await client.send(.post, "/users/me/feed-token", as: .reader).object()["url"] as? String)
            #expect(try await client.send(.delete, "/users/\(TestUser.reader.id)", as: .user(.admin)).status == .noContent)
            #expect(try await client.send(.get, third).status == .notFound)
        }
    }

    @Test("without anonymous reading the public feed is 401 but a personal one works; a server that wants signed requests serves feeds unsigned")
    func closedServers() async throws {
        try await withTestServer(configure: { $0.allowsAnonymousReading = false }) { _, client in
            #expect(try await client.send(.get, "/feed.atom").status == .unauthorized)
            let url = try #require(try await client.send(.post, "/users/me/feed-token", as: .reader).object()["url"] as? String)
            #expect(try await client.send(.get, url).status == .ok)
        }
        try await withTestServer(configure: { $0.requiresSignature = true }) { _, client in
            let feed = try await client.send(.get, "/feed.atom")
            let list = try await client.send(.get, "/announcements")
            #expect(feed.status == .ok)
            #expect(list.status == .unauthorized, "the API still wants signatures")
        }
    }
}
