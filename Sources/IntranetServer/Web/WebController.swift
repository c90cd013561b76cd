import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import IntranetHTML
import NIOCore

/// The intranet in a browser: pages rendered on the server from the same repositories, cache
/// and access rules as the API, with no JavaScript.
///
/// Reads are `GET` pages; every change is a `POST` of a form carrying the CSRF token, answered
/// with a redirect (303) to the page that shows the result. Errors become pages in
/// ``WebMiddleware``.
struct WebController: Sendable {
    let repository: any AnnouncementRepository
    /// The staff directory, for `/people`, `/people/{id}` and `/org`.
    let people: any PersonRepository
    let accounts: any AccountRepository
    let auth: AuthService
    let hasher: PasswordHasher
    let cache: ResponseCache
    let templates: WebTemplates
    let sanitizer: HTMLSanitizer
    /// The largest form body accepted, in bytes.
    let maxBodySize: Int
    /// Whether cookies are marked `Secure` (the site is served over HTTPS).
    let secureCookies: Bool
    /// The one search, for `/search`.
    let search: SearchController
    /// The zone pages show times in and the editor's form is read in.
    var timeZone = TimeZone(identifier: "UTC")!
    /// The clock publication and expiry are shown against.
    var now: @Sendable () -> Date = { Date() }
    /// Acknowledgements: the button, the reader's list, the editors' reach page.
    var acknowledging: AcknowledgementController?
    /// Where signed-in readers' opens of an announcement's page are counted.
    var opens: OpenCounter?
    /// Announcements' attached files (the edit page attaches and removes them).
    var attachments: AttachmentStore?

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, "/", Self.page(home))
        routes.add(.get, "/style.css", Self.page(stylesheet))
        routes.add(.get, "/site.js", Self.page(script))
        routes.add(.get, "/search", Self.page(searchPage))
        routes.add(.get, "/announcements/new", Self.page(newForm))
        routes.add(.post, "/announcements", Self.page(create))
        routes.add(.get, "/announcements/{id}", Self.page(show))
        routes.add(.post, "/announcements/{id}", Self.page(update))
        routes.add(.get, "/announcements/{id}/edit", Self.page(editForm))
        routes.add(.get, "/announcements/{id}/delete", Self.page(confirmDelete))
        routes.add(.post, "/announcements/{id}/acknowledgement", Self.page(acknowledge))
        routes.add(.get, "/announcements/{id}/reach", Self.page(reachPage))
        routes.add(.get, "/announcements/{id}/reach.csv", Self.page(reachCSV))
        routes.add(.get, "/acknowledgements", Self.page(pendingPage))
        routes.add(.post, "/announcements/{id}/delete", Self.page(delete))
        routes.add(.get, "/people", Self.page(directory))
        routes.add(.get, "/people/{id}", Self.page(personCard))
        routes.add(.get, "/org", Self.page(organisation))
        routes.add(.get, "/login", Self.page(loginForm))
        routes.add(.post, "/login", Self.page(login))
        routes.add(.post, "/logout", Self.page(logout))
        routes.add(.get, "/users", Self.page(users))
        routes.add(.post, "/users", Self.page(createUser))
        routes.add(.post, "/users/{id}/role", Self.page(changeRole))
        routes.add(.get, "/users/{id}/delete", Self.page(confirmDeleteUser))
        routes.add(.post, "/users/{id}/delete", Self.page(deleteUser))
        addAttachmentRoutes(to: &routes)
    }

    /// A handler whose failures reach ``WebMiddleware`` as they are: the router would otherwise
    /// answer an ``APIError`` itself, as a problem body.
    static func page(_ handler: @escaping RouteBook<AppRequestContext>.Handler) -> RouteBook<AppRequestContext>.Handler {
        { request, context in
            do {
                return try await handler(request, context)
            } catch {
                throw WebPageFailure(underlying: error)
            }
        }
    }

    /// The form of a `POST`, when it carries the identity's CSRF token.
    ///
    /// - Throws: ``APIError`` 403 without the token (nothing changes), 415 for a body that is
    ///   not a form, 413 above the limit.
    func checkedForm(_ request: Request, _ identity: WebIdentity) async throws -> [String: String] {
        guard WebForm.isForm(request) else { throw APIError.unsupportedMediaType() }
        let form = try await WebForm.fields(of: request, limit: maxBodySize)
        guard identity.acceptsForm(form) else {
            throw APIError(status: .forbidden, detail: "This form has expired or did not come from this site. Go back, reload the page and try again.")
        }
        return form
    }

    /// The signed-in user with at least `role`.
    ///
    /// - Throws: 401 when signed out (the middleware sends the browser to the sign-in page),
    ///   403 when the role is too low.
    func requireRole(_ role: UserRole, _ identity: WebIdentity) throws -> User {
        guard let user = identity.user else {
            throw AuthService.unauthorized("Sign in first.")
        }
        guard user.role >= role else {
            throw APIError(status: .forbidden, detail: "This needs the \(role.rawValue) role; you are signed in as a \(user.role.rawValue).")
        }
        return user
    }

    /// A page whose main part depends only on what the user may see (`view`, when it reads
    /// announcements) and on the data of `domains`: that part is built once per view and kept in
    /// the response cache until a change of one of those domains. Signed out, the whole page is
    /// kept and revalidated with its `ETag` (`public`). Signed in, the page around it is kept once
    /// per view and role with the user's name and CSRF token left open, filled in per request
    /// (``PersonalPage``; `private`), so thousands of sessions share one entry; and offered to
    /// ``PublicAnswerHandler``, which answers the next browser of that view and role on the
    /// event loop.
    func page(
        _ key: String, reads domains: ChangeDomains, view: ResponseCache.View? = nil, identity: WebIdentity, request: Request,
        build: () async throws -> PageFragment
    ) async throws -> Response {
        let readAt = view?.generation ?? cache.generation
        let fragment = try await cache.fragment(for: "web|main|" + key, dependsOn: domains, keyedBy: view, build: build)
        if identity.user == nil, identity.cookieToSet == nil {
            let entry = try await cache.answer(for: "web|page|" + key, dependsOn: domains, keyedBy: view) {
                var entry = Self.entry(templates.layout(main: fragment.main, WebPages.layout(fragment.title, identity)))
                entry.headers[.cacheControl] = "public, no-cache"
                return entry
            }
            return entry.response(for: request)
        }
        guard let user = identity.user, identity.cookieToSet == nil else {
            var response = Self.entry(templates.layout(main: fragment.main, WebPages.layout(fragment.title, identity))).response(for: request)
            if let cookie = identity.cookieToSet { response.setCookie(cookie) }
            return response
        }
        let shared = try await cache.personalPage(for: "web|signed-in|\(user.role.rawValue)|" + key, dependsOn: domains, keyedBy: view) {
            var open = identity
            open.csrf = PersonalPage.Slot.csrf.marker
            open.user?.displayName = PersonalPage.Slot.name.marker
            return PersonalPage(rendered: templates.layout(main: fragment.main, WebPages.layout(fragment.title, open)))
        }
        // Offered only where the event loop knows the view too (it would not follow the answer);
        // the cache offers nothing for a request without a page key.
        if let viewKey = view?.key ?? cache.knownViewKey(for: user) {
            cache.offer(shared, dependsOn: domains, readAt: readAt, for: request.head, view: viewKey, role: user.role)
        }
        return shared.response(name: user.displayName, csrf: identity.csrf, for: request)
    }

    /// A page asking to confirm a deletion, with the form that does it.
    func confirmPage(
        _ identity: WebIdentity, heading: String, question: String, action: String, confirm: String, cancel: String
    ) -> Response {
        var page = WebPages.layout(heading, identity)
        page["heading"] = heading
        page["question"] = question
        page["action"] = action
        page["confirmLabel"] = confirm
        page["cancel"] = cancel
        return Self.html(templates.render("confirm", page), identity: identity)
    }

    /// A rendered page as a cacheable entry, tagged by its content.
    static func entry(_ html: String) -> CachedResponse {
        let body = ByteBuffer(string: html)
        let etag = EntityTag.forContent(body.readableBytesView, suffix: "html")
        return CachedResponse(body: body, etag: etag, headers: [.contentType: "text/html; charset=utf-8", .eTag: etag])
    }

    /// A page that is never cached (forms, answers to posts).
    static func html(_ html: String, identity: WebIdentity, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        if let cookie = identity.cookieToSet { response.setCookie(cookie) }
        return response
    }

    /// `303 See Other` to `location`: after a post, the browser loads the result with a `GET`.
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// The editor's form as the API's JSON: title, body (an empty one is none), and (when the form has them) the
    /// publishing fields, times read in the zone the form names, or the site's `zone`.
    static func announcementJSON(_ form: [String: String], zone: TimeZone) -> JSONValue {
        let body = (form["body"] ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        let isEmpty = body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        var object: [String: JSONValue] = ["title": .string(form["title"] ?? "")]
        if form["format"] == "markdown", !isEmpty {
            object["markdown"] = .string(body)
        } else {
            object["body"] = isEmpty ? .null : .string(body)
        }
        if form["publishing"] != nil {
            object.merge(WebPublishingForm.json(form, site: zone)) { _, new in new }
        }
        return .object(object)
    }

    /// An error's messages for people: one per invalid field, or its detail.
    static func messages(_ error: APIError) -> [String] {
        guard let fields = error.fieldErrors, !fields.isEmpty else { return [error.detail] }
        return fields.map { "\($0.field.prefix(1).uppercased())\($0.field.dropFirst()) \($0.message)." }
    }

}

/// A page handler's failure on its way to ``WebMiddleware``, which makes it a page.
struct WebPageFailure: Error {
    var underlying: any Error
}
