import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// Sessions in the browser: the cookie never opens the API alone, signed requests and pages
/// together, signing in and out through forms, and the admins' account pages.
extension WebFrontEndTests {
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
}
