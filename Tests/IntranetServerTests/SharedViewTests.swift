import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// A whole company signed in: answers are kept once per view (what a kind of caller may see),
/// shared by every session of that view, and never given to a caller of another view.
@Suite("Answers shared per view")
struct SharedViewTests {
    /// A new reader account with a session of its own; returns its token.
    static func newReader(_ name: String, client: some TestClientProtocol) async throws -> String {
        let created = try await client.send(.post, "/users", json: #"{"username":"\#(name)","password":"a long enough password","role":"reader"}"#, as: .admin)
        #expect(created.status == .created)
        let login = try await client.send(.post, "/login", json: #"{"username":"\#(name)","password":"a long enough password"}"#, as: .anonymous)
        return try #require(try login.object()["token"] as? String)
    }

    static func page(_ path: String, token: String, client: some TestClientProtocol) async throws -> TestResponse {
        try await client.execute(uri: path, method: .get, headers: [.cookie: "\(WebCookies.session)=\(token)", .accept: browserAccept], body: nil)
    }

    @Test("readers of one view share the kept answers, early and in the route cache; readers of another never get them")
    func readersShareTheirView() async throws {
        try await withTestServer(mode: .live) { server, client in
            let restricted = try await client.send(.post, "/announcements", json: #"{"title":"For the reader only","readers":[3]}"#)
            let id = try #require(try restricted.object()["id"] as? Int)
            let third = try await Self.newReader("third", client: client)
            let bearer: HTTPFields = [.authorization: "Bearer \(third)"]

            // The reader named in the post: it is there, in the detail and the list.
            for _ in 0..<3 {
                #expect(try await client.send(.get, "/announcements/\(id)", as: .reader).status == .ok)
                #expect(try await client.send(.get, "/announcements", as: .reader).objects().contains { $0["id"] as? Int == id })
            }
            // Another reader (named in nothing): the same paths, twice each, so both are kept.
            for _ in 0..<2 {
                #expect(try await client.send(.get, "/announcements/\(id)", as: .otherReader).status == .notFound)
                #expect(try await client.send(.get, "/announcements", as: .otherReader).objects().allSatisfy { $0["id"] as? Int != id })
            }
            let entries = server.cache.count
            let otherList = try await client.send(.get, "/announcements", as: .otherReader)

            // A third reader of the same view: the first read is the application's (its session
            // is looked up) from the shared entry; the next ones are answered early from it.
            let first = try await client.send(.get, "/announcements", headers: bearer)
            let hits = server.cache.publicAnswerHits
            let second = try await client.send(.get, "/announcements", headers: bearer)
            let detail = try await client.send(.get, "/announcements/\(id)", headers: bearer)
            #expect(server.cache.publicAnswerHits == hits + 1)
            #expect(first.body == otherList.body && second.body == otherList.body)
            #expect(second.headers[.cacheControl] == "private, no-cache")
            #expect(detail.status == .notFound)
            #expect(server.cache.count == entries, "a new session of a known view adds no entry")

            // And the named reader still gets their own view, early too.
            let readerList = try await client.send(.get, "/announcements", as: .reader)
            #expect(try readerList.objects().contains { $0["id"] as? Int == id })
        }
    }

    @Test("a grant made by another process, not yet heard of, never puts one reader's restricted post into another reader's answer")
    func staleViewsNeverLeak() async throws {
        try await withTestServer(mode: .live) { server, client in
            let restricted = try await client.send(.post, "/announcements", json: #"{"title":"Named elsewhere","readers":[3]}"#)
            let id = try #require(try restricted.object()["id"] as? Int)
            let third = try await Self.newReader("third", client: client)
            let bearer: HTTPFields = [.authorization: "Bearer \(third)"]
            for _ in 0..<2 {
                _ = try await client.send(.get, "/announcements", as: .otherReader)
                _ = try await client.send(.get, "/announcements", headers: bearer)
            }
            // Another process (a pipeline of its own) adds otherReader to the post: the server
            // hears of it only at its revision watcher's next look, up to a second later.
            let elsewhere = FluentAnnouncementRepository(database: server.database.database)
            _ = try await elsewhere.update(id: id, precondition: .none) { current in
                AnnouncementContent(title: current.title, body: current.body, readers: [3, 4])
            }
            // Whatever otherReader reads meanwhile is built for the view they had, which the
            // third reader shares: the third never sees the post.
            for _ in 0..<3 {
                _ = try await client.send(.get, "/announcements", as: .otherReader)
                _ = try await client.send(.get, "/announcements/\(id)", as: .otherReader)
                #expect(try await client.send(.get, "/announcements", headers: bearer).objects().allSatisfy { $0["id"] as? Int != id })
                #expect(try await client.send(.get, "/announcements/\(id)", headers: bearer).status == .notFound)
            }
            try await Task.sleep(for: RevisionWatcher.interval + .milliseconds(500))
            #expect(try await client.send(.get, "/announcements", as: .otherReader).objects().contains { $0["id"] as? Int == id })
            #expect(try await client.send(.get, "/announcements", headers: bearer).objects().allSatisfy { $0["id"] as? Int != id })
        }
    }

    @Test("web pages: the part around each person is theirs (name, CSRF token), the rest their view's; another view never shows the post")
    func pagesAssembledPerPerson() async throws {
        try await withTestServer(mode: .live) { server, client in
            let restricted = try await client.send(.post, "/announcements", json: #"{"title":"Restricted memo","readers":[3]}"#)
            let id = try #require(try restricted.object()["id"] as? Int)
            let third = try await Self.newReader("third", client: client)
            var pages: [String: String] = [:]
            for (name, token) in [("reader", TestUser.reader.token), ("otherReader", TestUser.otherReader.token), ("third", third)] {
                for _ in 0..<2 { _ = try await Self.page("/", token: token, client: client) }
                let home = try await Self.page("/", token: token, client: client)
                #expect(home.status == .ok)
                #expect(home.headers[.cacheControl] == "private, no-cache")
                pages[name] = home.text
                let detail = try await Self.page("/announcements/\(id)", token: token, client: client)
                #expect(detail.status == (name == "reader" ? .ok : .notFound), "\(name)")
            }
            #expect(pages["reader"]!.contains("Restricted memo"))
            #expect(!pages["otherReader"]!.contains("Restricted memo") && !pages["third"]!.contains("Restricted memo"))
            // The new account's name is its username.
            #expect(pages["otherReader"]!.contains("Otherreader") && !pages["otherReader"]!.contains(">third "))
            #expect(pages["third"]!.contains(">third ") && !pages["third"]!.contains("Otherreader"))
            let otherCSRF = WebCookies.csrfToken(forSession: TestUser.otherReader.token)
            let thirdCSRF = WebCookies.csrfToken(forSession: third)
            #expect(pages["otherReader"]!.contains(otherCSRF) && !pages["otherReader"]!.contains(thirdCSRF))
            #expect(pages["third"]!.contains(thirdCSRF) && !pages["third"]!.contains(otherCSRF))
            // Beyond the name and the token, the two pages of one view are the same bytes.
            let normalised = { (page: String, name: String, csrf: String) in
                page.replacingOccurrences(of: name, with: "NAME").replacingOccurrences(of: csrf, with: "CSRF")
            }
            #expect(normalised(pages["otherReader"]!, ">Otherreader ", otherCSRF).replacingOccurrences(of: "NAME", with: ">NAME ") == normalised(pages["third"]!, ">third ", thirdCSRF).replacingOccurrences(of: "NAME", with: ">NAME "))

            // Each person's page has a tag of its own, and revalidates with it.
            let tagged = try await Self.page("/", token: third, client: client)
            let tag = try #require(tagged.headers[.eTag])
            let other = try await Self.page("/", token: TestUser.otherReader.token, client: client)
            #expect(other.headers[.eTag] != tag)
            let revalidated = try await client.execute(
                uri: "/", method: .get,
                headers: [.cookie: "\(WebCookies.session)=\(third)", .accept: browserAccept, .ifNoneMatch: tag], body: nil)
            #expect(revalidated.status == .notModified)
            _ = server
        }
    }

    @Test("a reader granted a restricted post sees it at once on every path; one taken off loses it at once")
    func grantsCountAtOnce() async throws {
        try await withTestServer(mode: .live) { server, client in
            let restricted = try await client.send(.post, "/announcements", json: #"{"title":"Granted later","readers":[3]}"#)
            let id = try #require(try restricted.object()["id"] as? Int)
            for _ in 0..<3 {
                _ = try await client.send(.get, "/announcements/\(id)", as: .otherReader)
                _ = try await client.send(.get, "/announcements", as: .otherReader)
                _ = try await Self.page("/", token: TestUser.otherReader.token, client: client)
            }
            #expect(try await client.send(.get, "/announcements/\(id)", as: .otherReader).status == .notFound)

            _ = try await client.send(.patch, "/announcements/\(id)", json: #"{"readers":[3,4]}"#)
            #expect(try await client.send(.get, "/announcements/\(id)", as: .otherReader).status == .ok)
            #expect(try await client.send(.get, "/announcements", as: .otherReader).objects().contains { $0["id"] as? Int == id })
            #expect(try await Self.page("/", token: TestUser.otherReader.token, client: client).text.contains("Granted later"))

            // The reader named alone before now shares the other's view; the other taken off again.
            for _ in 0..<2 { _ = try await client.send(.get, "/announcements", as: .reader) }
            _ = try await client.send(.patch, "/announcements/\(id)", json: #"{"readers":[3]}"#)
            #expect(try await client.send(.get, "/announcements/\(id)", as: .otherReader).status == .notFound)
            #expect(try await client.send(.get, "/announcements", as: .otherReader).objects().allSatisfy { $0["id"] as? Int != id })
            #expect(try await !Self.page("/", token: TestUser.otherReader.token, client: client).text.contains("Granted later"))
            #expect(try await client.send(.get, "/announcements", as: .reader).objects().contains { $0["id"] as? Int == id })
            _ = server
        }
    }

    @Test("a burst of unique query strings keeps every cache within its limits and the hot answer kept")
    func burstOfUniqueKeys() async throws {
        try await withTestServer(mode: .live, configure: { $0.answerCacheLimits = CacheLimits(entries: 200, bytes: 2 << 20) }) { server, client in
            for _ in 0..<3 { _ = try await client.send(.get, "/announcements/2", as: .reader) }
            for index in 0..<1_500 {
                _ = try await client.send(.get, "/announcements?q=crawler\(index)")
                if index.isMultiple(of: 100) {
                    _ = try await client.send(.get, "/announcements/2", as: .reader)
                    #expect(server.cache.count <= 200)
                    #expect(server.cache.report.bytes <= 2 << 20)
                }
            }
            let hits = server.cache.publicAnswerHits
            _ = try await client.send(.get, "/announcements/2", as: .reader)
            #expect(server.cache.publicAnswerHits == hits + 1, "the hot answer was let go")
            #expect(server.cache.report.evictions > 1_000)
        }
    }
}
