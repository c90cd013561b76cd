import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// What a browser sends for a page.
private let browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

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
            #expect(!policy.contains("unsafe-inline") && !policy.contains("script-src"))
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

    @Test("a session cookie never authorises an API request without the CSRF token")
    func cookieNeedsCSRFForTheAPI() async throws {
        try await withTestServer(mode: .live) { _, client in
            let cookie: HTTPFields = [.cookie: "\(WebCookies.session)=\(TestUser.editor.token)", .contentType: "application/json"]
            let write = try await client.execute(uri: "/announcements", method: .post, headers: cookie, body: ByteBuffer(string: #"{"title":"Via cookie"}"#))
            #expect(write.status == .unauthorized)
            var withToken = cookie
            withToken[HTTPField.Name("X-CSRF-Token")!] = WebCookies.csrfToken(forSession: TestUser.editor.token)
            let allowed = try await client.execute(uri: "/announcements", method: .post, headers: withToken, body: ByteBuffer(string: #"{"title":"Via cookie"}"#))
            #expect(allowed.status == .created)
            withToken[HTTPField.Name("X-CSRF-Token")!] = WebCookies.csrfToken(forSession: TestUser.reader.token)
            let mismatched = try await client.execute(uri: "/announcements", method: .post, headers: withToken, body: ByteBuffer(string: #"{"title":"Via cookie"}"#))
            #expect(mismatched.status == .unauthorized)
        }
    }

    @Test("with signed requests required, browsers still read and edit through the pages, but a cookie never opens the API unsigned")
    func signaturesRequired() async throws {
        try await withTestServer(mode: .live, configure: { $0.requiresSignature = true }) { _, client in
            let home = try await client.page("/", as: .editor)
            #expect(home.status == .ok && home.text.contains("New announcement"))
            let created = try await client.form("/announcements", [("title", "Signed or not"), ("body", "<p>From a browser.</p>")], as: .editor)
            #expect(created.status == .seeOther)
            let location = try #require(created.headers[.location])
            #expect(try await client.page(location, as: .editor).text.contains("<h1>Signed or not</h1>"))

            var headers: HTTPFields = [.cookie: "\(WebCookies.session)=\(TestUser.editor.token)", .contentType: "application/json"]
            headers[HTTPField.Name("X-CSRF-Token")!] = WebCookies.csrfToken(forSession: TestUser.editor.token)
            let write = try await client.execute(uri: "/announcements", method: .post, headers: headers, body: ByteBuffer(string: #"{"title":"Unsigned"}"#))
            #expect(write.status == .unauthorized)
            let read = try await client.execute(uri: location, method: .get, headers: [.accept: "application/json"], body: nil)
            #expect(read.status == .unauthorized, "the API's JSON needs a signature")
            #expect(!(try await client.page("/", as: .editor).text.contains("Unsigned")))
        }
    }

    @Test("signing in through the form sets an HttpOnly, SameSite=Lax session cookie; signing out ends the session")
    func signInAndOut() async throws {
        try await withTestServer(mode: .live) { _, client in
            let form = try await client.page("/login")
            #expect(form.text.contains("method=\"post\" action=\"/login\""))
            #expect(form.text.contains("<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required maxlength=\"256\">"))
            let setCookie = try #require(form.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly"))
            let csrf = try #require(setCookie.firstMatch(of: /intranet_csrf=([0-9a-f]{64})/)?.1)
            let preSession = "\(WebCookies.csrf)=\(csrf)"

            let forged = try await client.form("/login", [("username", "editor"), ("password", TestUser.password)], as: nil, csrf: (csrf.first == "f" ? "e" : "f") + csrf.dropFirst(), cookie: preSession)
            #expect(forged.status == .forbidden)
            let wrong = try await client.form("/login", [("username", "editor"), ("password", "nope")], as: nil, csrf: String(csrf), cookie: preSession)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("Wrong username or password.") && !wrong.text.contains("nope"))

            let signedIn = try await client.form("/login", [("username", "editor"), ("password", TestUser.password)], as: nil, csrf: String(csrf), cookie: preSession)
            #expect(signedIn.status == .seeOther)
            let session = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("intranet_session=") })
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Lax") && session.contains("Path=/"))
            let token = try #require(session.firstMatch(of: /intranet_session=([^;]+)/)?.1)
            let home = try await client.execute(uri: "/", method: .get, headers: [.accept: browserAccept, .cookie: "\(WebCookies.session)=\(token)"], body: nil)
            #expect(home.text.contains("Editor <span class=\"role\">(editor)</span>"))

            let out = try await client.form("/logout", [], as: nil, csrf: WebCookies.csrfToken(forSession: String(token)), cookie: "\(WebCookies.session)=\(token)")
            #expect(out.status == .seeOther)
            #expect(out.headers[values: .setCookie].contains { $0.hasPrefix("intranet_session=;") && $0.contains("Max-Age=0") })
            let after = try await client.execute(uri: "/announcements/new", method: .get, headers: [.accept: browserAccept, .cookie: "\(WebCookies.session)=\(token)"], body: nil)
            #expect(after.status == .seeOther && after.headers[.location] == "/login", "the session is gone on the server")
        }
    }

    @Test("admins list, create, re-role and delete accounts; others get a 403 page")
    func adminUsers() async throws {
        try await withTestServer(mode: .live) { _, client in
            #expect(try await client.page("/users", as: .editor).status == .forbidden)
            let list = try await client.page("/users", as: .admin)
            #expect(list.status == .ok && list.text.contains("<th scope=\"row\">otherReader</th>"))
            let created = try await client.form("/users", [("username", "zoe"), ("displayName", "Zoë"), ("role", "editor"), ("password", "a long enough password")], as: .admin)
            #expect(created.status == .seeOther && created.headers[.location] == "/users?done=created")
            let after = try await client.page("/users?done=created", as: .admin)
            #expect(after.text.contains("The account was created.") && after.text.contains("<td>Zoë</td>"))
            let duplicate = try await client.form("/users", [("username", "zoe"), ("role", "reader"), ("password", "a long enough password")], as: .admin)
            #expect(duplicate.status == .conflict)
            let short = try await client.form("/users", [("username", "yan"), ("role", "reader"), ("password", "short")], as: .admin)
            #expect(short.status == .unprocessableContent && short.text.contains("Password"))
            let id = try #require(after.text.firstMatch(of: /action="\/users\/(\d+)\/role"[^>]*>\s*<input type="hidden" name="csrf" value="[0-9a-f]+">\s*<select id="role-\d+" name="role" aria-label="Role of zoe">/)?.1)
            #expect(try await client.form("/users/\(id)/role", [("role", "admin")], as: .admin).status == .seeOther)
            #expect(try await client.send(.get, "/users/\(id)", as: .admin).object()["role"] as? String == "admin")
            #expect(try await client.form("/users/\(id)/role", [("role", "admin")], as: .editor).status == .forbidden)
            #expect(try await client.page("/users/\(id)/delete", as: .admin).text.contains("Delete the account “zoe”?"))
            #expect(try await client.form("/users/\(id)/delete", [], as: .admin).status == .seeOther)
            #expect(try await client.send(.get, "/users/\(id)", as: .admin).status == .notFound)
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
            for forbidden in ["<script", "onerror", "javascript:", "<iframe"] {
                #expect(!page.lowercased().contains(forbidden), "\(forbidden)")
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

    @Test("an unknown page is a 404 page in the site's layout")
    func notFoundPage() async throws {
        try await withTestServer(mode: .live) { _, client in
            let missing = try await client.page("/announcements/999")
            #expect(missing.status == .notFound)
            #expect(missing.headers[.contentType] == "text/html; charset=utf-8")
            #expect(missing.text.contains("<a class=\"skip\" href=\"#main\">") && missing.text.contains("<h1>Not found</h1>"))
        }
    }

    @Test("an address nothing serves is the 404 page for a browser and a problem body for API clients", arguments: ["/no-such-page", "/announcements/2/nothing", "/people/3/x/y", "/style.css/more"])
    func unknownAddress(path: String) async throws {
        try await withTestServer(mode: .live) { _, client in
            let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
            for method in [HTTPRequest.Method.get, .head] {
                let page = try await client.execute(uri: path, method: method, headers: [.accept: browser], body: nil)
                #expect(page.status == .notFound)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8", "\(method) \(path)")
                #expect(page.headers[.contentSecurityPolicy] != nil)
                guard method == .get else { continue }
                let html = page.text
                #expect(html.contains("<html lang=\"en\">"))
                #expect(html.components(separatedBy: "<h1").count == 2, "one h1")
                #expect(html.contains("<h1>Not found</h1>") && html.contains("There is no page at this address."))
                #expect(html.contains("<nav"), "the site's navigation")
            }
            for accept in ["application/json", "*/*", "application/problem+json"] {
                let problem = try await client.execute(uri: path, method: .get, headers: [.accept: accept], body: nil)
                #expect(problem.status == .notFound)
                #expect(problem.headers[.contentType] == "application/problem+json", "Accept: \(accept)")
            }
        }
    }

    @Test("an unexpected failure is a 500 page naming nothing internal; with the database down, a 503 page", arguments: [false, true])
    func failurePages(databaseDown: Bool) async throws {
        struct Leaky: Error, CustomStringConvertible { var description: String { "SELECT secret FROM passwords" } }
        try await withTestServer(mode: .live) { server, _ in
            let templates = try await WebTemplates.load()
            let real = FluentAnnouncementRepository(database: server.database.database)
            var book = RouteBook<AppRequestContext>()
            book.add(.get, "/boom") { _, _ in throw WebPageFailure(underlying: Leaky()) }
            let inner = Router(context: AppRequestContext.self)
            book.register(on: inner)
            let router = Router(context: AppRequestContext.self)
            router.add(middleware: WebMiddleware(
                web: book, api: [], responder: inner.buildResponder(), templates: templates,
                repository: databaseDown ? UnreachableDatabase() as any AnnouncementRepository : real,
                identity: { _ in WebIdentity(user: nil, sessionToken: nil, csrf: "") },
                contentSecurityPolicy: WebMiddleware.contentSecurityPolicy(embedHosts: []), maxBodySize: 1024))
            try await Application(router: router).test(.router) { client in
                let page = try await client.execute(uri: "/boom", method: .get, headers: [:], body: nil)
                #expect(page.status == (databaseDown ? .serviceUnavailable : .internalServerError))
                #expect(page.text.contains(databaseDown ? "<h1>The intranet is not answering</h1>" : "<h1>Something went wrong</h1>"))
                #expect(page.headers[.retryAfter] == (databaseDown ? "60" : nil))
                for leak in ["SELECT", "Leaky", "passwords", "Fluent", "SQLite"] {
                    #expect(!page.text.contains(leak), "\(leak)")
                }
                #expect(page.headers[.contentSecurityPolicy] != nil)
            }
        }
    }
}

/// A database that does not answer: every call fails as a lost connection would.
private struct UnreachableDatabase: AnnouncementRepository {
    struct ConnectionRefused: Error {}
    func list(_ request: ListRequest, visibility: Visibility) async throws -> (items: [StoredAnnouncement], total: Int) { throw ConnectionRefused() }
    func find(id: Int, visibility: Visibility) async throws -> StoredAnnouncement? { throw ConnectionRefused() }
    func create(_ content: AnnouncementContent) async throws -> StoredAnnouncement { throw ConnectionRefused() }
    func update(id: Int, precondition: WritePrecondition, change: @escaping @Sendable (StoredAnnouncement) throws -> AnnouncementContent) async throws -> StoredAnnouncement {
        throw ConnectionRefused()
    }
    func delete(id: Int, precondition: WritePrecondition) async throws { throw ConnectionRefused() }
    func ping() async throws { throw ConnectionRefused() }
}
