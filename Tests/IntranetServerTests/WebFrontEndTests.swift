import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// What a browser sends for a page.
let browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

/// The site's own script element, which every page carries in its head.
let siteScriptElement = "<script src=\"/site.js\" defer></script>"

extension String {
    /// A page without the site's own script element (exactly once in a page): what is left
    /// must hold no script at all.
    var withoutSiteScript: String {
        replacingOccurrences(of: siteScriptElement, with: "")
    }
}

extension TestClientProtocol {
    /// A browser's `GET`, signed in as `user` (by session cookie) or signed out.
    func page(_ uri: String, as user: TestUser? = nil, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.accept] = browserAccept
        if let user { headers[.cookie] = "\(WebCookies.session)=\(user.token)" }
        return try await execute(uri: uri, method: .get, headers: headers, body: nil)
    }

    /// A browser's form `POST`, signed in as `user`, with the CSRF token of that session unless
    /// `csrf` says otherwise.
    func form(_ uri: String, _ fields: [(String, String)], as user: TestUser?, csrf: String? = nil, cookie: String? = nil) async throws -> TestResponse {
        var fields = fields
        if let token = csrf ?? user.map({ WebCookies.csrfToken(forSession: $0.token) }) {
            fields.append(("csrf", token))
        }
        let body = fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        }.joined(separator: "&")
        var headers: HTTPFields = [.accept: browserAccept, .contentType: "application/x-www-form-urlencoded"]
        if let cookie {
            headers[.cookie] = cookie
        } else if let user {
            headers[.cookie] = "\(WebCookies.session)=\(user.token)"
        }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }
}

@Suite("The web front end: pages, negotiation, forms, CSRF, errors", .serialized)
struct WebFrontEndTests {
    @Test("the list page is HTML, newest first, with strict security headers, cached publicly and revalidated with its ETag")
    func listPage() async throws {
        try await withTestServer(mode: .live) { _, client in
            let page = try await client.page("/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'") && policy.contains("style-src 'self'"))
            #expect(!policy.contains("unsafe-inline") && policy.contains("script-src 'self';"), "the site's own script only")
            #expect(page.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            #expect(page.headers[.cacheControl] == "public, no-cache")
            #expect(page.headers[.vary] == "Accept, Cookie")
            let html = page.text
            #expect(html.contains("<html lang=\"en\">"))
            let newest = try #require(html.range(of: "/announcements/6\""))
            let oldest = try #require(html.range(of: "/announcements/1\""))
            #expect(newest.lowerBound < oldest.lowerBound, "newest first")
            #expect(html.contains("<p class=\"excerpt\">Our yearly key rotation is due."))

            let etag = try #require(page.headers[.eTag])
            let again = try await client.page("/", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            // Without a browser's Accept (curl), / is still the page: the API has nothing there.
            #expect(try await client.execute(uri: "/", method: .get, headers: [:], body: nil).headers[.contentType] == "text/html; charset=utf-8")
            let css = try await client.execute(uri: "/style.css", method: .get, headers: [:], body: nil)
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(html.contains("<script src=\"/site.js\" defer></script>"))
            let script = try await client.execute(uri: "/site.js", method: .get, headers: [:], body: nil)
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(String(buffer: script.body).contains("timeZone"))
            let scriptTag = try #require(script.headers[.eTag])
            #expect(try await client.execute(uri: "/site.js", method: .get, headers: [.ifNoneMatch: scriptTag], body: nil).status == .notModified)
        }
    }

    @Test("one URL for an announcement: HTML for a browser, the API's JSON for everyone else")
    func negotiation() async throws {
        try await withTestServer(mode: .live) { _, client in
            let html = try await client.page("/announcements/4")
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
            #expect(html.text.contains("<h1>Security: rotate your SSH keys by 15 December</h1>"))
            for accept in ["application/json", "*/*", "application/json, text/html;q=0.5"] {
                let json = try await client.execute(uri: "/announcements/4", method: .get, headers: [.accept: accept], body: nil)
                #expect(json.headers[.contentType]?.hasPrefix("application/json") == true, "\(accept)")
                #expect(try json.object()["title"] as? String == "Security: rotate your SSH keys by 15 December")
            }
            // The sign-in page shares its path with the API's POST /login: a browser gets the
            // form, anyone else the API's answer to a GET there (found by schemathesis's ST204).
            #expect(try await client.page("/login").text.contains("<h1>Sign in</h1>"))
            for accept in [nil, "application/json", "*/*"] {
                let api = try await client.execute(uri: "/login", method: .get, headers: accept.map { [.accept: $0] } ?? [:], body: nil)
                #expect(api.status == .methodNotAllowed, "\(accept ?? "no Accept")")
                #expect(api.headers[.allow] == "POST")
                #expect(api.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test("the directory in the browser: search people, a person's card with manager and reports, the organisation as a nested list", arguments: TestStorage.all)
    func peoplePages(_ storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let search = try await client.page("/people?q=LEFEVRE")
            #expect(search.status == .ok && search.headers[.contentType] == "text/html; charset=utf-8")
            #expect(search.text.contains("<li><a href=\"/people/3\">Zoë Lefèvre</a> <span class=\"meta\">Head of IT · IT</span></li>"))
            #expect(search.text.contains("1 person for “LEFEVRE”"))
            let all = try await client.page("/people?page=2")
            #expect(all.text.contains("Page 2 of 2") && all.text.contains("href=\"/people\">← Previous"))

            let card = try await client.page("/people/3")
            #expect(card.text.contains("<h1>Zoë Lefèvre</h1>"))
            #expect(card.text.contains("<dt>Manager</dt><dd><a href=\"/people/1\">Margit Olsen</a>, Chief Executive Officer</dd>"))
            #expect(card.text.contains("<a href=\"/people/9\">Kwame Mensah</a>") && card.text.contains("<a href=\"/people/10\">Lena Fischer</a>"))
            #expect(card.text.contains("href=\"mailto:zoe.lefevre@brightwater.example\""))
            #expect(try await client.page("/people/999").status == .notFound)
            // A NUL in a search once split the cached page where it stood, so the rest of the
            // title reached the page unescaped (found by review).
            for path in ["/people?q=%00%3Cimg%20src%3Dhttps%3A%2F%2Fevil%2Fx%3E", "/?q=%00%3Cb%3Ebold%3C%2Fb%3E"] {
                let injected = try await client.page(path)
                #expect(injected.status == .ok, "\(path)")
                #expect(!injected.text.contains("<img src=https://evil") && !injected.text.contains("<b>bold</b>"), "\(path)")
                #expect(injected.text.contains("&lt;"), "the text is shown escaped: \(path)")
            }
            let json = try await client.execute(uri: "/people/3", method: .get, headers: [.accept: "application/json"], body: nil)
            #expect(try json.object()["reportIds"] as? [Int] == [9, 10], "one URL: JSON for everyone else")

            let org = try await client.page("/org")
            #expect(org.text.components(separatedBy: "<li id=\"p").count - 1 == 40)
            let zoe = try #require(org.text.range(of: "<li id=\"p3\">"))
            let kwame = try #require(org.text.range(of: "<li id=\"p9\">"))
            #expect(zoe.lowerBound < kwame.lowerBound && org.text[zoe.lowerBound..<kwame.lowerBound].contains("<ul>"), "reports nest under their manager")

            _ = try await client.send(.patch, "/people/3", json: #"{"jobTitle":"Chief Information Officer"}"#)
            #expect(try await client.page("/people/3").text.contains("Chief Information Officer · IT"), "a write shows at once")
        }
    }

    @Test("search matches title and body, ignoring case; wildcards are literal; pages link to each other", arguments: TestStorage.all)
    func searchAndPaging(_ storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let ssh = try await client.page("/?q=ssh+KEY")
            #expect(ssh.text.contains("/announcements/4\""))
            #expect(!ssh.text.contains("/announcements/1\""))
            #expect(ssh.text.contains("1 announcement for “ssh KEY”"))
            let percent = try await client.page("/?q=1%25_x")
            #expect(percent.text.contains("No announcements match your search."))
            for number in 1...15 {
                _ = try await client.send(.post, "/announcements", json: #"{"title":"Notice \#(number)"}"#)
            }
            let first = try await client.page("/")
            #expect(first.text.contains("Page 1 of 3"))
            #expect(first.text.contains("<a rel=\"next\" href=\"/?page=2\">"))
            let third = try await client.page("/?page=3")
            #expect(third.text.contains("/announcements/1\""))
            #expect(third.text.contains("<a rel=\"prev\" href=\"/?page=2\">"))
            #expect(try await client.page("/?page=0").status == .notFound)
        }
    }

    @Test("a restricted announcement is shown to its readers only; to others it is a 404 page")
    func restricted() async throws {
        try await withTestServer(mode: .live) { _, client in
            let created = try await client.send(.post, "/announcements", json: #"{"title":"Board only","readers":[3]}"#)
            let id = try #require(created.object()["id"] as? Int)
            let anonymous = try await client.page("/announcements/\(id)")
            #expect(anonymous.status == .notFound)
            #expect(anonymous.text.contains("<h1>Not found</h1>") && anonymous.text.contains("<title>Not found · Intranet</title>"))
            #expect(try await client.page("/announcements/\(id)", as: .otherReader).status == .notFound)
            let reader = try await client.page("/announcements/\(id)", as: .reader)
            #expect(reader.status == .ok && reader.text.contains("<h1>Board only</h1>"))
            #expect(reader.headers[.cacheControl] == "private, no-cache")
            #expect(!(try await client.page("/").text.contains("Board only")))
            #expect(try await client.page("/", as: .reader).text.contains("Board only"))
        }
    }

    @Test("editors create, edit and delete through forms; each change needs the CSRF token", arguments: TestStorage.all)
    func editorForms(_ storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            #expect(try await client.page("/announcements/new", as: .editor).text.contains("<label for=\"title\">Title</label>"))
            let forged = try await client.form("/announcements", [("title", "Forged"), ("body", "")], as: .editor, csrf: "0000")
            #expect(forged.status == .forbidden)
            let missing = try await client.form("/announcements", [("title", "Forged")], as: .editor, csrf: "")
            #expect(missing.status == .forbidden)
            #expect(!(try await client.page("/", as: .editor).text.contains("Forged")), "nothing was created")

            let created = try await client.form("/announcements", [("title", "Fire drill"), ("body", "<p>At <em>ten</em></p>")], as: .editor)
            #expect(created.status == .seeOther)
            let location = try #require(created.headers[.location])
            #expect(location == "/announcements/7")
            let shown = try await client.page(location, as: .editor)
            #expect(shown.text.contains("<h1>Fire drill</h1>") && shown.text.contains("<p>At <em>ten</em></p>"))
            #expect(shown.text.contains("href=\"/announcements/7/edit\""))

            let invalid = try await client.form("/announcements", [("title", "   ")], as: .editor)
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.text.contains("role=\"alert\"") && invalid.text.contains("Title must not be empty"))

            let edit = try await client.page("/announcements/7/edit", as: .editor)
            #expect(edit.text.contains("value=\"Fire drill\""))
            let revision = try #require(edit.text.firstMatch(of: /name="revision" value="(\d+)"/)?.1)
            let updated = try await client.form("/announcements/7", [("title", "Fire drill moved"), ("body", "<p>Eleven</p>"), ("revision", String(revision))], as: .editor)
            #expect(updated.status == .seeOther)
            // The same old form again: someone changed it meanwhile, nothing is overwritten.
            let stale = try await client.form("/announcements/7", [("title", "Overwrite"), ("body", ""), ("revision", String(revision))], as: .editor)
            #expect(stale.status == .conflict)
            #expect(stale.text.contains("Someone else changed this announcement"))
            #expect(try await client.page("/announcements/7").text.contains("<h1>Fire drill moved</h1>"))

            let confirm = try await client.page("/announcements/7/delete", as: .editor)
            #expect(confirm.text.contains("Delete “Fire drill moved”?") && confirm.text.contains("action=\"/announcements/7/delete\""))
            #expect(try await client.form("/announcements/7/delete", [], as: .editor, csrf: "nope").status == .forbidden)
            let deleted = try await client.form("/announcements/7/delete", [], as: .editor)
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/")
            #expect(try await client.page("/announcements/7").status == .notFound)
        }
    }

    @Test("a reader sees no edit controls and cannot post the form; signed out, editing sends to the sign-in page")
    func readersCannotEdit() async throws {
        try await withTestServer(mode: .live) { _, client in
            let page = try await client.page("/announcements/2", as: .reader)
            #expect(!page.text.contains("/announcements/2/edit") && !page.text.contains("New announcement"))
            #expect(try await client.page("/announcements/new", as: .reader).status == .forbidden)
            let posted = try await client.form("/announcements", [("title", "Sneaky")], as: .reader)
            #expect(posted.status == .forbidden)
            #expect(posted.text.contains("<h1>Not allowed</h1>"))
            #expect(try await client.page("/announcements/2/edit", as: .reader).status == .forbidden)
            let signedOut = try await client.page("/announcements/new")
            #expect(signedOut.status == .seeOther && signedOut.headers[.location] == "/login")
            #expect(!(try await client.page("/").text.contains("Sneaky")))
        }
    }

    @Test("a body's script, handlers and javascript: links never reach the page")
    func bodiesAreSafe() async throws {
        try await withTestServer(mode: .live) { _, client in
            let body = #"<p>Hi</p><script>alert(1)</script><img src=\"x\" onerror=\"alert(2)\"><a href=\"javascript:alert(3)\">x</a><iframe src=\"https://evil.example/\"></iframe>"#
            let created = try await client.send(.post, "/announcements", json: #"{"title":"Nasty","body":"\#(body)"}"#)
            let id = try #require(created.object()["id"] as? Int)
            let page = try await client.page("/announcements/\(id)").text
            #expect(page.contains("<p>Hi</p>"))
            #expect(page.components(separatedBy: siteScriptElement).count == 2, "the site's own script, once")
            let rest = page.withoutSiteScript.lowercased()
            for forbidden in ["<script", "onerror", "javascript:", "<iframe"] {
                #expect(!rest.contains(forbidden), "\(forbidden)")
            }
        }
    }

    @Test("an embed host the admin allows keeps its iframe, and the page's policy allows that frame only")
    func embeds() async throws {
        try await withTestServer(mode: .live, configure: { $0.embedHosts = ["www.youtube-nocookie.com"] }) { _, client in
            let body = #"<iframe src=\"https://www.youtube-nocookie.com/embed/abc\"></iframe><iframe src=\"https://evil.example/x\"></iframe>"#
            let created = try await client.send(.post, "/announcements", json: #"{"title":"Video","body":"\#(body)"}"#)
            let id = try #require(created.object()["id"] as? Int)
            let page = try await client.page("/announcements/\(id)")
            #expect(page.text.contains("https://www.youtube-nocookie.com/embed/abc"))
            #expect(!page.text.contains("evil.example"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("frame-src https://www.youtube-nocookie.com;") == true)
        }
    }
}
