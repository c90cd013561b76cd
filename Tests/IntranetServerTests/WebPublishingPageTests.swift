import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IntranetAPI
import NIOCore
import Testing
@testable import IntranetServer

/// The editor's publishing in the browser, signed in through the sign-in form: times read in
/// the site's zone (`INTRANET_TIME_ZONE`), the Markdown preview, the editors' tabs, badges,
/// a refused time shown again, and the Markdown source kept for the next edit.
@Suite("The web front end: publishing")
struct WebPublishingPageTests {
    /// A browser signed in through `/login`: its session cookie and the CSRF token forms carry.
    struct Browser: Sendable {
        let token: String
        var cookie: String { "\(WebCookies.session)=\(token)" }

        func get(_ client: some TestClientProtocol, _ uri: String) async throws -> TestResponse {
            try await client.page(uri, headers: [.cookie: cookie])
        }

        func post(_ client: some TestClientProtocol, _ uri: String, _ fields: [(String, String)]) async throws -> TestResponse {
            try await client.form(uri, fields, as: nil, csrf: WebCookies.csrfToken(forSession: token), cookie: cookie)
        }
    }

    static func signIn(_ client: some TestClientProtocol, as user: TestUser, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Browser {
        let form = try await client.page("/login")
        let setCookie = try #require(form.headers[.setCookie], sourceLocation: sourceLocation)
        let csrf = try #require(setCookie.firstMatch(of: /intranet_csrf=([0-9a-f]{64})/)?.1, sourceLocation: sourceLocation)
        let signedIn = try await client.form(
            "/login", [("username", user.rawValue), ("password", TestUser.password)], as: nil, csrf: String(csrf), cookie: "\(WebCookies.csrf)=\(csrf)")
        try #require(signedIn.status == .seeOther, "\(signedIn.status)", sourceLocation: sourceLocation)
        let session = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("intranet_session=") }, sourceLocation: sourceLocation)
        return Browser(token: String(try #require(session.firstMatch(of: /intranet_session=([^;]+)/)?.1, sourceLocation: sourceLocation)))
    }

    /// The fields of the editor's form: an HTML body, published, nothing else set.
    static func fields(title: String, _ extra: [(String, String)] = []) -> [(String, String)] {
        var fields = [("title", title), ("format", "html"), ("body", "<p>Text</p>"), ("publishing", "1"), ("status", "published")]
        for (name, value) in extra {
            fields.removeAll { $0.0 == name }
            fields.append((name, value))
        }
        return fields
    }

    @Test("times typed in the form are read in INTRANET_TIME_ZONE and stored as UTC instants; pages and the edit form show them back in that zone", arguments: [
        ("Asia/Tokyo", "2030-12-07T08:00", "2030-12-06T23:00:00.000Z", "2031-01-10T09:30:00.000Z", "7 December 2030, 08:00"),
        ("Europe/Lisbon", "2030-07-01T09:30", "2030-07-01T08:30:00.000Z", "2031-01-10T18:30:00.000Z", "1 July 2030, 09:30"),
    ])
    func siteTimeZone(zone: String, local: String, publishUTC: String, expiresUTC: String, shown: String) async throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        try await withTestServer(mode: .live, configure: { $0.timeZone = timeZone }) { _, client in
            let editor = try await Self.signIn(client, as: .editor)
            let created = try await editor.post(client, "/announcements", Self.fields(title: "Harbour opening", [
                ("publishAt", local), ("expiresAt", "2031-01-10T18:30"), ("pinned", "1"), ("important", "1"),
                ("departments", "IT\r\nFinance"), ("teams", "9"),
            ]))
            #expect(created.status == .seeOther, "\(created.text)")
            let location = try #require(created.headers[.location])
            let id = try #require(Int(location.split(separator: "/").last ?? ""))

            let stored = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            #expect(stored["publishAt"] as? String == publishUTC)
            #expect(stored["expiresAt"] as? String == expiresUTC)
            #expect(stored["status"] as? String == "published" && stored["pinned"] as? Bool == true && stored["important"] as? Bool == true)
            let audience = try #require(stored["audience"] as? [String: Any])
            #expect(audience["departments"] as? [String] == ["IT", "Finance"] && audience["teams"] as? [Int] == [9])

            let publishAt = try #require(IntranetJSON.parseDate(publishUTC))
            let abbreviation = try #require(timeZone.abbreviation(for: publishAt))
            let page = try await editor.get(client, location).text
            #expect(page.contains("Scheduled: readers see it from <time datetime=\"\(publishUTC.replacingOccurrences(of: ".000Z", with: "Z"))\">\(shown) \(abbreviation)</time>."), "\(page)")
            #expect(page.contains("Audience: IT, Finance, team of person 9."))
            let form = try await editor.get(client, "\(location)/edit").text
            #expect(form.contains("(times in <span data-zone-name>\(zone)</span>)"))
            #expect(form.contains("<input type=\"hidden\" name=\"zone\" value=\"\(zone)\">"))
            let publishISO = publishUTC.replacingOccurrences(of: ".000Z", with: "Z")
            #expect(
                form.contains("name=\"publishAt\" type=\"datetime-local\" step=\"1\" value=\"\(local)\" data-instant=\"\(publishISO)\""),
                "the time is shown as it was typed, with its instant for the page's script")
            #expect(form.contains("name=\"expiresAt\" type=\"datetime-local\" step=\"1\" value=\"2031-01-10T18:30\""))
            #expect(!(try await client.page("/announcements/\(id)", as: .reader).status == .ok), "scheduled: readers do not see it yet")
        }
    }

    @Test("a form that names the browser's zone (set by the page's script) is read in it; a zone this machine does not know, or none, is the site's")
    func browserZone() async throws {
        try await withTestServer(mode: .live, configure: { $0.timeZone = TimeZone(identifier: "Europe/Lisbon")! }) { _, client in
            let editor = try await Self.signIn(client, as: .editor)
            for (zone, expected) in [
                ("America/New_York", "2030-12-07T13:00:00.000Z"), ("Not/A_Zone", "2030-12-07T08:00:00.000Z"),
                (String(repeating: "x", count: 200), "2030-12-07T08:00:00.000Z"),
            ] {
                let created = try await editor.post(client, "/announcements", Self.fields(title: "Zone \(zone.prefix(20))", [("publishAt", "2030-12-07T08:00"), ("zone", zone)]))
                #expect(created.status == .seeOther, "\(created.text)")
                let location = try #require(created.headers[.location])
                let stored = try await client.send(.get, location, as: .editor).object()
                #expect(stored["publishAt"] as? String == expected, "\(zone.prefix(20))")
            }
            // Shown again after an error in the zone it was typed in, so the script leaves it.
            let refused = try await editor.post(client, "/announcements", Self.fields(title: "", [("publishAt", "2030-12-07T08:00"), ("zone", "America/New_York")]))
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("<input type=\"hidden\" name=\"zone\" value=\"America/New_York\">"))
            #expect(refused.text.contains("value=\"2030-12-07T08:00\" data-instant=\"2030-12-07T13:00:00Z\""))
        }
    }

    @Test("Preview shows the Markdown rendered and sanitised (a table, no handler) with the text kept in the form, and saves nothing")
    func preview() async throws {
        try await withTestServer(mode: .live) { _, client in
            let editor = try await Self.signIn(client, as: .editor)
            let markdown = "| Day | Who |\n|-----|-----|\n| Mon | Ana |\n\n<img src=x onerror=alert(1)>"
            let shown = try await editor.post(client, "/announcements", Self.fields(title: "Rota", [("format", "markdown"), ("body", markdown), ("preview", "1")]))
            #expect(shown.status == .ok)
            let page = shown.text
            let section = try #require(page.range(of: "Preview (not saved)").map { String(page[$0.lowerBound...]) }, "\(page)")
            #expect(section.contains("<table>") && section.contains("<th>Day</th>") && section.contains("<td>Ana</td>"), "\(section)")
            // HTML typed into Markdown is kept as CommonMark says, then sanitised: the image stays,
            // its handler does not.
            #expect(!section.lowercased().contains("onerror") && !section.contains("alert("), "\(section)")
            #expect(page.contains("<textarea id=\"body\" name=\"body\" rows=\"14\">| Day | Who |\n|-----|-----|\n| Mon | Ana |\n\n&lt;img"))
            #expect(page.contains("value=\"markdown\" checked") && page.contains("value=\"Rota\""))

            let list = try await client.send(.get, "/announcements?max=100", as: .editor)
            #expect(list.headers[.total] == "6")
            #expect(try await client.send(.get, "/announcements?status=draft", as: .editor).ids().isEmpty)
            #expect(try await client.send(.get, "/announcements/7", as: .editor).status == .notFound)

            let before = try await client.send(.get, "/announcements/2", as: .editor).text
            let edited = try await editor.post(client, "/announcements/2", Self.fields(title: "Not saved", [("format", "markdown"), ("body", "**bold**"), ("preview", "1")]))
            #expect(edited.status == .ok && edited.text.contains("<strong>bold</strong>"))
            #expect(try await client.send(.get, "/announcements/2", as: .editor).text == before, "an edit's preview changes nothing")
        }
    }

    @Test("editors get tabs for Published, Drafts, Scheduled and Expired, each listing its own; a reader's /?status=draft is refused")
    func tabs() async throws {
        try await withTestServer(mode: .live) { _, client in
            let draft = try await client.createAnnouncement(#"{"title":"Budget draft","status":"draft"}"#)
            let scheduled = try await client.createAnnouncement(#"{"title":"Next century","publishAt":"2099-01-01T00:00:00Z"}"#)
            let expired = try await client.createAnnouncement(#"{"title":"Old news","publishAt":"2001-01-01T00:00:00Z","expiresAt":"2002-01-01T00:00:00Z"}"#)
            let editor = try await Self.signIn(client, as: .editor)
            let home = try await editor.get(client, "/").text
            #expect(home.contains("<a href=\"/\" aria-current=\"page\">Published</a>"), "\(home)")
            for (href, name) in [("/?status=draft", "Drafts"), ("/?status=scheduled", "Scheduled"), ("/?status=expired", "Expired")] {
                #expect(home.contains("<a href=\"\(href)\">\(name)</a>"), "\(name)")
            }
            for id in [draft, scheduled, expired] { #expect(!home.contains("/announcements/\(id)\""), "\(id) is not published now") }

            let tabs: [(String, Int, String)] = [("draft", draft, "<span class=\"badge\">Draft</span>"), ("scheduled", scheduled, "Publishes <time"), ("expired", expired, "expired <time")]
            for (status, id, mark) in tabs {
                let page = try await editor.get(client, "/?status=\(status)")
                #expect(page.status == .ok)
                #expect(page.text.contains("/announcements/\(id)\"") && page.text.contains(mark), "\(status)")
                #expect(!page.text.contains("/announcements/1\""), "\(status) lists only its own")
                #expect(page.text.contains("aria-current=\"page\">"), "\(status)")
                for other in [draft, scheduled, expired] where other != id { #expect(!page.text.contains("/announcements/\(other)\""), "\(status)") }
            }

            let reader = try await Self.signIn(client, as: .reader)
            let refused = try await reader.get(client, "/?status=draft")
            #expect(refused.status == .forbidden)
            #expect(!refused.text.contains("Budget draft"))
            #expect(!(try await reader.get(client, "/").text.contains("class=\"tabs\"")))
            let signedOut = try await client.page("/?status=draft")
            #expect(signedOut.status != .ok && !signedOut.text.contains("Budget draft"))
        }
    }

    @Test("a pinned and important announcement from the form comes first with Pinned and Important badges, for readers too")
    func badges() async throws {
        try await withTestServer(mode: .live) { _, client in
            let editor = try await Self.signIn(client, as: .editor)
            let created = try await editor.post(client, "/announcements", Self.fields(title: "Storm warning", [("pinned", "1"), ("important", "1")]))
            let location = try #require(created.headers[.location])
            for page in [try await client.page("/").text, try await client.page("/", as: .reader).text] {
                let list = try #require(page.range(of: "<ol class=\"announcements\">\n"))
                #expect(page[list.upperBound...].hasPrefix("<li class=\"pinned\" data-live-item=\"7\">\n<article class=\"important\">\n<h2><span class=\"badge badge-important\">Important</span> <a href=\"\(location)\">Storm warning</a></h2>"), "\(page)")
                #expect(page.contains("<span class=\"badge badge-pinned\">Pinned</span>"))
                let storm = try #require(page.range(of: "href=\"\(location)\""))
                let newestSeed = try #require(page.range(of: "href=\"/announcements/6\""))
                #expect(storm.lowerBound < newestSeed.lowerBound, "pinned first")
            }
            let detail = try await client.page(location).text
            #expect(detail.contains("<article class=\"announcement important\" data-live-announcement=\"7\" data-revision=\"1\">"))
            #expect(detail.contains("badge-pinned\">Pinned</span>"))
        }
    }

    @Test("a time that does not exist, or an expiry before publication, shows the form again (422) with the field's message and what was typed; nothing is saved")
    func refusedTimes() async throws {
        try await withTestServer(mode: .live, configure: { $0.timeZone = TimeZone(identifier: "Europe/Lisbon")! }) { _, client in
            let editor = try await Self.signIn(client, as: .editor)
            let impossible = try await editor.post(client, "/announcements", Self.fields(title: "Leap day", [("publishAt", "2030-02-30T08:00"), ("departments", "Depot")]))
            #expect(impossible.status == .unprocessableContent)
            #expect(impossible.text.contains("role=\"alert\"") && impossible.text.contains("<li>PublishAt must be"), "\(impossible.text)")
            #expect(impossible.text.contains("value=\"2030-02-30T08:00\"") && impossible.text.contains("value=\"Leap day\"") && impossible.text.contains(">Depot</textarea>"))

            let backwards = try await editor.post(client, "/announcements", Self.fields(title: "Backwards", [("publishAt", "2030-06-01T08:00"), ("expiresAt", "2030-05-01T08:00")]))
            #expect(backwards.status == .unprocessableContent)
            #expect(backwards.text.contains("<li>ExpiresAt must be after publishAt.</li>"), "\(backwards.text)")
            #expect(backwards.text.contains("value=\"2030-05-01T08:00\""))

            let revision = try #require(try await editor.get(client, "/announcements/2/edit").text.firstMatch(of: /name="revision" value="(\d+)"/)?.1)
            let before = try await client.send(.get, "/announcements/2", as: .editor).text
            let edit = try await editor.post(client, "/announcements/2", Self.fields(title: "Changed", [("revision", String(revision)), ("pinnedUntil", "soon")]))
            #expect(edit.status == .unprocessableContent && edit.text.contains("<li>PinnedUntil must be"), "\(edit.text)")
            #expect(try await client.send(.get, "/announcements/2", as: .editor).text == before)
            #expect(try await client.send(.get, "/announcements?max=100", as: .editor).headers[.total] == "6")
        }
    }

    @Test("an announcement written in Markdown opens for editing with its Markdown source and Markdown chosen; saved as HTML, the source is gone")
    func markdownSourceKept() async throws {
        try await withTestServer(mode: .live) { _, client in
            let editor = try await Self.signIn(client, as: .editor)
            #expect(try await editor.get(client, "/announcements/new").text.contains("value=\"markdown\" checked"), "new ones default to Markdown")
            let source = "## Menu\n\n- soup & bread\n- **cake**"
            let created = try await editor.post(client, "/announcements", Self.fields(title: "Menu", [("format", "markdown"), ("body", source)]))
            let location = try #require(created.headers[.location])
            let page = try await client.page(location).text
            #expect(page.contains("<h2>Menu</h2>") && page.contains("<li><strong>cake</strong></li>"), "\(page)")

            let form = try await editor.get(client, "\(location)/edit").text
            #expect(form.contains("rows=\"14\">## Menu\n\n- soup &amp; bread\n- **cake**</textarea>"), "\(form)")
            #expect(form.contains("value=\"markdown\" checked") && !form.contains("value=\"html\" checked"))
            #expect(try await client.send(.get, location, as: .editor).object()["markdown"] as? String == source)

            let revision = try #require(form.firstMatch(of: /name="revision" value="(\d+)"/)?.1)
            let saved = try await editor.post(client, location, Self.fields(title: "Menu", [("body", "<p>HTML now</p>"), ("revision", String(revision))]))
            #expect(saved.status == .seeOther)
            #expect(try await client.send(.get, location, as: .editor).object()["markdown"] is NSNull)
            let again = try await editor.get(client, "\(location)/edit").text
            #expect(again.contains("value=\"html\" checked") && again.contains("rows=\"14\">&lt;p&gt;HTML now&lt;/p&gt;</textarea>"), "\(again)")
        }
    }

    @Test("Editors only with no department or team keeps a post from readers, shows ticked in the edit form, and stays so when the form is saved again")
    func editorsOnly() async throws {
        try await withTestServer(mode: .live) { _, client in
            let editor = try await Self.signIn(client, as: .editor)
            let created = try await editor.post(client, "/announcements", Self.fields(title: "Board only", [("editorsOnly", "1")]))
            let location = try #require(created.headers[.location])
            let stored = try await client.send(.get, location, version: "3.0", as: .editor).object()
            let audience = try #require(stored["audience"] as? [String: Any])
            #expect(audience["departments"] as? [String] == [] && audience["teams"] as? [Int] == [])
            #expect(try await client.send(.get, location, as: .reader).status == .notFound)
            #expect(try await client.send(.get, location).status == .notFound)

            let form = try await editor.get(client, location + "/edit").text
            #expect(form.contains(#"name="editorsOnly" value="1" checked"#))
            let resaved = try await editor.post(client, location, Self.fields(title: "Board only, typo fixed", [("editorsOnly", "1")]))
            #expect(resaved.status == .seeOther)
            #expect(try await client.send(.get, location, as: .reader).status == .notFound, "a typo fix does not publish it to everyone")
            let cleared = try await editor.post(client, location, Self.fields(title: "For everyone now"))
            #expect(cleared.status == .seeOther)
            #expect(try await client.send(.get, location, as: .reader).status == .ok)
        }
    }
}