import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// The web's one search: a box in every page's header, and `/search` for a browser with both
/// groups, the matched words marked, nothing a reader may not read.
@Suite("The web front end: search")
struct WebSearchPageTests {
    @Test("every page's header has the search box; /search for a browser shows people and announcements with the matched words in <mark>, the rest escaped")
    func resultsPage() async throws {
        try await withTestServer(mode: .live) { _, client in
            let home = try await client.page("/").text
            #expect(home.contains(#"<form class="site-search" method="get" action="/search" role="search">"#))
            #expect(home.contains(#"<input id="site-search" name="q" type="search" aria-label="Search""#))
            let id = try await client.createAnnouncement(#"{"title":"Harbour tides & boats","body":"<p>Tides &lt;script&gt; at the harbour: 5 &amp; 6.</p>"}"#)

            let page = try await client.page("/search?q=tides")
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            let html = page.text
            #expect(html.contains(#"<input id="search-q" name="q" type="search" value="tides" maxlength="200">"#))
            #expect(html.contains(#"<a href="/announcements/\#(id)">Harbour tides &amp; boats</a>"#), "\(html)")
            #expect(html.contains("<mark>Tides</mark> &lt;script&gt; at the harbour: 5 &amp; 6."), "\(html)")
            #expect(!html.withoutSiteScript.contains("<script"))

            let person = try await client.page("/search?q=lefevre").text
            #expect(person.contains(#"<a href="/people/3">Zoë Lefèvre</a>"#) && person.contains("<mark>Lefèvre</mark>"), "\(person)")
            #expect(person.contains(#"People <span class="count">(1)</span>"#))

            // The API's answer for everyone else, at the same address.
            let json = try await client.send(.get, "/search?q=tides")
            #expect(json.headers[.contentType] == "application/json")
        }
    }

    @Test("an overlong search is cut at 200 code points, as the API counts them, and still searches")
    func overlongByCodePoints() async throws {
        try await withTestServer { _, client in
            // 127 characters, 247 code points: combining marks alone are separators.
            let text = "lefevre" + String(repeating: " \u{301}", count: 120)
            let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let page = try await client.page("/search?q=\(query)").text
            let found = page.contains(#"<a href="/people/3">Zoë Lefèvre</a>"#)
            #expect(found)
        }
    }

    @Test("a restricted post is not on a signed-out or other reader's results page; its reader finds it")
    func restrictedStaysHidden() async throws {
        try await withTestServer(mode: .live) { _, client in
            _ = try await client.createAnnouncement(#"{"title":"Quince orchard plan","readers":[\#(TestUser.reader.id)]}"#)
            for user in [nil, TestUser.otherReader] {
                let html = try await client.page("/search?q=quince", as: user).text
                #expect(!html.contains("orchard") && html.contains(#"Announcements <span class="count">(0)</span>"#))
            }
            let reader = try await client.page("/search?q=quince", as: .reader).text
            #expect(reader.contains("Quince orchard plan") && reader.contains(#"Announcements <span class="count">(1)</span>"#))
        }
    }

    @Test("an empty search shows the form and a hint; control characters are dropped; a bad page is the 404 page")
    func emptyAndBad() async throws {
        try await withTestServer(mode: .live) { _, client in
            let empty = try await client.page("/search?q=")
            #expect(empty.status == .ok && empty.text.contains("every word must match") && !empty.text.contains("results\""))
            let control = try await client.page("/search?q=tid%00es")
            #expect(control.status == .ok)
            #expect(try await client.page("/search?q=x&page=0").status == .notFound)
        }
    }
}
