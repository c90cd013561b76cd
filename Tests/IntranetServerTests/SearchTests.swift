import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import Spearal
import Testing
@testable import IntranetServer

/// `GET /search`: one ranked answer over people and announcements, on SQLite and PostgreSQL.
@Suite("Search: people and announcements, ranked")
struct SearchTests {
    /// A corpus of the test's own, in several languages and scripts.
    static func makeCorpus(_ client: some TestClientProtocol) async throws -> [String: Int] {
        var ids: [String: Int] = [:]
        func post(_ name: String, _ title: String, _ body: String, extra: String = "") async throws {
            ids[name] = try await client.createAnnouncement(
                #"{"title":\#(Body.string(title)),"body":\#(Body.string(body))\#(extra)}"#)
        }
        try await post("leave", "Sabbatical programme 2027", "<p>From January, a <b>sabbatical</b> of up to six months is open to everyone.</p>")
        try await post("phishing", "Phishing drill: report suspicious mail", "<p>Forward anything odd to the service desk before the deadline.</p>")
        try await post("lunar", "农历新年快乐", "<p>Lunar festival: the Shanghai office closes for the 新年 holiday.</p>")
        try await post("japanese", "東京オフィス移転", "<p>東京のオフィスは来月移転します。</p>")
        try await post("weiss", "Neuer Standort", "<p>Herr Weißkopf leitet ab März den Standort in München.</p>")
        try await post("kitchen", "Kitchen rota", "<p>Broth of the day: leek and potato. Return your trays at the counter.</p>")
        try await post("porto", "Porto office move", "<p>The team in Porto moves to the riverside building. Gonçalo coordinates.</p>")
        func person(_ json: String) async throws -> Int {
            let created = try await client.send(.post, "/people", json: json)
            try #require(created.status == .created, "\(created.text)")
            return try #require(try created.object()["id"] as? Int)
        }
        ids["zoelle"] = try await person(#"{"name":"Zoëlle Brévart","email":"zoelle.brevart@example.com","jobTitle":"Grounds coordinator","department":"Grounds","phone":"+351 21 000 7788"}"#)
        ids["ines"] = try await person(#"{"name":"Inês Gonçalo-Araújo","email":"ines.araujo@example.com","jobTitle":"Office manager","department":"Porto office"}"#)
        ids["jurgen"] = try await person(#"{"name":"Jürgen Weißkopf","email":"juergen.weisskopf@example.com","jobTitle":"Site lead","department":"München"}"#)
        return ids
    }

    static func search(_ client: some TestClientProtocol, _ query: String, as user: TestUser? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let response = try await client.send(.get, "/search?q=\(encoded)", as: user.map { .user($0) } ?? .anonymous)
        try #require(response.status == .ok, "\(query): \(response.status) \(response.text)", sourceLocation: sourceLocation)
        return try response.object()
    }

    static func ids(_ group: Any?) -> [Int] {
        ((group as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    static func total(_ group: Any?) -> Int? {
        (group as? [String: Any])?["total"] as? Int
    }

    @Test("the top result of each query, in several languages: accents, ß, prefixes, phrases, Chinese and Japanese pairs", arguments: TestStorage.all)
    func topResults(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let ids = try await Self.makeCorpus(client)
            let announcements: [(String, String)] = [
                ("sabbatical programme", "leave"), ("programme sabbatical", "leave"), ("phish", "phishing"), ("SUSPICIOUS MAIL", "phishing"),
                ("新年", "lunar"), ("农历", "lunar"), ("オフィス", "japanese"), ("東京", "japanese"), ("weisskopf", "weiss"),
                ("WEISSKOPF münchen", "weiss"), ("goncalo", "porto"), ("\"riverside building\"", "porto"), ("porto office", "porto"),
                ("broth", "kitchen"),
            ]
            for (query, expected) in announcements {
                let found = try await Self.search(client, query)
                #expect(Self.ids(found["announcements"]).first == ids[expected], "\(query): \(found)")
            }
            let people: [(String, String)] = [
                ("zoelle", "zoelle"), ("brevart zoelle", "zoelle"), ("ZOËLLE", "zoelle"), ("goncalo", "ines"), ("araujo", "ines"),
                ("weisskopf", "jurgen"), ("jurgen", "jurgen"), ("grounds coord", "zoelle"), ("7788", "zoelle"),
            ]
            for (query, expected) in people {
                let found = try await Self.search(client, query)
                #expect(Self.ids(found["people"]).first == ids[expected], "\(query): \(found)")
            }
            // A phrase matches only as a phrase; every word must match.
            #expect(Self.total(try await Self.search(client, "\"building riverside\"")["announcements"]) == 0)
            #expect(Self.total(try await Self.search(client, "sabbatical broth")["announcements"]) == 0)
        }
    }

    @Test("titles rank above bodies, whole words above beginnings, newer above older among equals")
    func ranking() async throws {
        try await withTestServer(mode: .live) { _, client in
            let body = try await client.createAnnouncement(#"{"title":"Team news","body":"<p>The quarterly report is out.</p>"}"#)
            let older = try await client.createAnnouncement(#"{"title":"Quarterly report","body":"<p>Numbers.</p>"}"#)
            let newer = try await client.createAnnouncement(#"{"title":"Quarterly report, revised","body":"<p>Numbers again.</p>"}"#)
            let prefix = try await client.createAnnouncement(#"{"title":"Quarterlyish reporting","body":"<p>x</p>"}"#)
            #expect(Self.ids(try await Self.search(client, "quarterly report")["announcements"]) == [newer, older, body])
            #expect(Self.ids(try await Self.search(client, "quarterly rep")["announcements"]) == [newer, older, body], "titles first, while typing too")
            let typed = Self.ids(try await Self.search(client, "report quarterly")["announcements"])
            #expect(typed == [newer, older, body])
            #expect(!typed.contains(prefix), "quarterlyish is not the word quarterly")
        }
    }

    @Test("the snippet is plain text with code point offsets of the matched words; a body's markup never reaches it")
    func snippets() async throws {
        try await withTestServer(mode: .live) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Emoji day","body":"<p>🎉🎉 <script>x</script><b>Célébration</b> at <i>noon</i> &amp; cake</p>"}"#)
            let found = try await Self.search(client, "celebration")
            let item = try #require((found["announcements"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect(item.first?["id"] as? Int == id)
            let snippet = try #require(item.first?["snippet"] as? [String: Any])
            let text = try #require(snippet["text"] as? String)
            #expect(!text.contains("<") && text.contains("& cake"), "\(text)")
            let matches = try #require(snippet["matches"] as? [[Int]])
            let decoded = SearchSnippet(text: text, matches: matches)
            #expect(decoded.marked == ["Célébration"], "offsets in code points, past two emoji: \(matches)")
        }
    }

    @Test("restricted, draft, scheduled and expired announcements are in no result, no total and no snippet of anyone who may not read them", arguments: TestStorage.all)
    func neverALeak(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let secret = try await client.createAnnouncement(#"{"title":"Zanzibar merger","body":"<p>Confidential zanzibar plan.</p>","readers":[\#(TestUser.reader.id)]}"#)
            _ = try await client.createAnnouncement(#"{"title":"Zanzibar draft","status":"draft"}"#)
            _ = try await client.createAnnouncement(#"{"title":"Zanzibar later","publishAt":"2099-01-01T00:00:00Z"}"#)
            _ = try await client.createAnnouncement(#"{"title":"Zanzibar old","publishAt":"2001-01-01T00:00:00Z","expiresAt":"2002-01-01T00:00:00Z"}"#)
            for user in [nil, TestUser.otherReader] {
                let found = try await Self.search(client, "zanzibar", as: user)
                #expect(Self.total(found["announcements"]) == 0 && Self.ids(found["announcements"]).isEmpty, "\(String(describing: user)): \(found)")
                let raw = try await client.send(.get, "/search?q=zanzibar", as: user.map { .user($0) } ?? .anonymous).text.lowercased()
                #expect(!raw.contains("merger") && !raw.contains("confidential"))
            }
            let reader = try await Self.search(client, "zanzibar", as: .reader)
            #expect(Self.ids(reader["announcements"]) == [secret] && Self.total(reader["announcements"]) == 1)
            let editor = try await Self.search(client, "zanzibar", as: .editor)
            #expect(Self.total(editor["announcements"]) == 1, "search finds what is live, for editors too: \(editor)")
        }
    }

    @Test("a write is found at once: created, changed (old words gone, the snippet the new body's), deleted", arguments: TestStorage.all)
    func writesAreFoundAtOnce(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            #expect(Self.total(try await Self.search(client, "quokka")["announcements"]) == 0, "kept empty answer first")
            // An unassigned code point folds to nothing: an empty search, not a broken tsquery.
            #expect(try await client.send(.get, "/search?q=%EF%A9%AE").status == .ok)
            let id = try await client.createAnnouncement(#"{"title":"Quokka sighting","body":"<p>Near the car park.</p>"}"#)
            #expect(Self.ids(try await Self.search(client, "quokka")["announcements"]) == [id])
            let patched = try await client.send(.patch, "/announcements/\(id)", headers: [.contentType: "application/merge-patch+json"], json: #"{"title":"Wombat sighting"}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(Self.total(try await Self.search(client, "quokka")["announcements"]) == 0)
            #expect(Self.ids(try await Self.search(client, "wombat")["announcements"]) == [id])
            // A snippet shows the body as it is now, never as it was.
            func snippet(_ query: String) async throws -> String? {
                let items = (try await Self.search(client, query)["announcements"] as? [String: Any])?["items"] as? [[String: Any]]
                return (items?.first?["snippet"] as? [String: Any])?["text"] as? String
            }
            #expect(try await snippet("near") == "Near the car park.")
            let edited = try await client.send(
                .patch, "/announcements/\(id)", headers: [.contentType: "application/merge-patch+json"], json: #"{"body":"<p>Near the bus stop.</p>"}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try await snippet("near") == "Near the bus stop.")
            #expect(try await client.send(.delete, "/announcements/\(id)").status == .noContent)
            #expect(Self.total(try await Self.search(client, "wombat")["announcements"]) == 0)
        }
    }

    @Test("a body with a run of 5,000 letters (encoded data) and a long Chinese text is saved and found by its words", arguments: TestStorage.all)
    func longWords(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let blob = String(repeating: "QmFzZTY0", count: 625)
            let chinese = String(repeating: "办公室会议安全培训假期大楼员工客户项目报告", count: 2_000)
            let id = try await client.createAnnouncement(#"{"title":"Key material","body":"<p>Fingerprint \#(blob) rotated.</p><p>\#(chinese)</p>"}"#)
            #expect(Self.ids(try await Self.search(client, "fingerprint rotated")["announcements"]) == [id])
            #expect(Self.ids(try await Self.search(client, "员工客户")["announcements"]) == [id])
            #expect(Self.total(try await Self.search(client, String(blob.prefix(150)))["announcements"]) == 0)
            // A matched word longer than a snippet, near the start of a longer text.
            let long = String(repeating: "x", count: 190)
            let wide = try await client.createAnnouncement(#"{"title":"Wide","body":"<p>Intro words here \#(long) and then many more words follow after it, enough to pass the snippet's length by far, so that the window is cut after the match.</p>"}"#)
            let found = try await Self.search(client, long)
            #expect(Self.ids(found["announcements"]) == [wide], "\(found)")
        }
    }

    @Test("malformed queries are a 400 naming the problem or an empty result, never a 500", arguments: [
        ("", 400), ("%20%20", 400), ("a%00b", 400), ("a%07b", 400), (String(repeating: "x", count: 10_000), 400),
        ("%21%3F%2E%2C", 200), ("%22unbalanced", 200), ("%22%22%22", 200), ("a%22b%22c%22", 200), ("*%20OR%20NEAR(", 200),
        ("%27%3B%20DROP%20TABLE%20announcements%3B--", 200), ("%EF%A9%AE", 200), ("%EF%A9%AE%EF%A9%AE", 200),
    ])
    func malformed(query: String, status: Int) async throws {
        try await withTestServer(mode: .live) { _, client in
            let response = try await client.send(.get, "/search?q=\(query)")
            #expect(Int(response.status.code) == status, "\(query.prefix(40)): \(response.status) \(response.text.prefix(200))")
            if status == 400 {
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test("only=, page and per_page: one group, paging with totals; bad values are 400")
    func groupsAndPaging() async throws {
        try await withTestServer(mode: .live) { _, client in
            for number in 1...5 {
                _ = try await client.createAnnouncement(#"{"title":"Fire drill \#(number)"}"#)
            }
            let first = try await client.send(.get, "/search?q=drill&only=announcements&per_page=2").object()
            #expect(first["people"] == nil)
            #expect(Self.total(first["announcements"]) == 5 && Self.ids(first["announcements"]).count == 2)
            let third = try await client.send(.get, "/search?q=drill&only=announcements&per_page=2&page=3").object()
            #expect(Self.ids(third["announcements"]).count == 1)
            let pages = Set(Self.ids(first["announcements"]) + Self.ids(try await client.send(.get, "/search?q=drill&only=announcements&per_page=2&page=2").object()["announcements"]) + Self.ids(third["announcements"]))
            #expect(pages.count == 5)
            let people = try await client.send(.get, "/search?q=drill&only=people").object()
            #expect(people["announcements"] == nil && Self.total(people["people"]) == 0)
            for bad in ["only=all", "per_page=0", "per_page=51", "page=0", "page=x", "q=a&q=b"] {
                let response = try await client.send(.get, "/search?q=drill&\(bad)")
                #expect(response.status == .badRequest, "\(bad): \(response.text)")
            }
        }
    }

    @Test("with INTRANET_ANONYMOUS_READ=false, signed out is 401 and signed in searches")
    func signInRequired() async throws {
        try await withTestServer(mode: .live, configure: { $0.allowsAnonymousReading = false }) { _, client in
            let signedOut = try await client.send(.get, "/search?q=harbour")
            let signedIn = try await client.send(.get, "/search?q=harbour", as: .user(.reader))
            #expect(signedOut.status == .unauthorized)
            #expect(signedIn.status == .ok)
        }
    }

    @Test("in Spearal the answer is an intranet.SearchResults with its groups")
    func spearal() async throws {
        try await withTestServer(mode: .live) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Spearal search probe"}"#)
            let response = try await client.send(.get, "/search?q=probe", headers: [.accept: "application/spearal"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/spearal")
            let results = try SpearalDecoder().decode(SearchResults.self, from: Data(buffer: response.body))
            #expect(results.announcements?.items.map(\.id) == [id])
            #expect(results.announcements?.items.first?.snippet.marked == ["probe"])
        }
    }
}
