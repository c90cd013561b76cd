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

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, "/", Self.page(home))
        routes.add(.get, "/style.css", Self.page(stylesheet))
        routes.add(.get, "/announcements/new", Self.page(newForm))
        routes.add(.post, "/announcements", Self.page(create))
        routes.add(.get, "/announcements/{id}", Self.page(show))
        routes.add(.post, "/announcements/{id}", Self.page(update))
        routes.add(.get, "/announcements/{id}/edit", Self.page(editForm))
        routes.add(.get, "/announcements/{id}/delete", Self.page(confirmDelete))
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
    }

    /// A handler whose failures reach ``WebMiddleware`` as they are: the router would otherwise
    /// answer an ``APIError`` itself, as a problem body.
    private static func page(_ handler: @escaping RouteBook<AppRequestContext>.Handler) -> RouteBook<AppRequestContext>.Handler {
        { request, context in
            do {
                return try await handler(request, context)
            } catch {
                throw WebPageFailure(underlying: error)
            }
        }
    }

    // MARK: Reading

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let fields = WebForm.parse(request.uri.query ?? "")
        let query = fields["q"].map { String(WebForm.withoutControlCharacters($0).trimmingCharacters(in: .whitespacesAndNewlines).prefix(WebPages.maxSearchLength)) }
            .flatMap { $0.isEmpty ? nil : $0 }
        guard let number = Int(fields["page"] ?? "1"), number >= 1, number <= 1_000_000 else {
            throw APIError.notFound("There is no such page of announcements.")
        }
        let key = "web|list|\(identity.visibility.cacheKey)|\(number)|\(query ?? "")"
        return try await page(key, identity: identity, request: request) {
            var list = ListRequest(sort: .createdAt, isDescending: true, offset: (number - 1) * WebPages.pageSize, limit: WebPages.pageSize)
            list.search = query
            let (items, total) = try await repository.list(list, visibility: identity.visibility)
            let pages = max(1, (total + WebPages.pageSize - 1) / WebPages.pageSize)
            var context: [String: Any] = [:]
            context["items"] = items.map { WebPages.announcement($0, sanitizer: sanitizer) }
            context["hasItems"] = !items.isEmpty
            context["total"] = total
            context["resultNoun"] = total == 1 ? "announcement" : "announcements"
            context["canEdit"] = (identity.user?.role ?? .reader) >= .editor
            if let query { context["query"] = query }
            if pages > 1 {
                var paging: [String: Any] = ["page": number, "pages": pages]
                if number > 1 { paging["previous"] = WebPages.listLink(page: number - 1, query: query) }
                if number < pages { paging["next"] = WebPages.listLink(page: number + 1, query: query) }
                context["paging"] = paging
            }
            return (query.map { "“\($0)”" } ?? "Announcements", templates.renderMain("index", context))
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        return try await page("web|detail|\(identity.visibility.cacheKey)|\(id)", identity: identity, request: request) {
            guard let item = try await repository.find(id: id, visibility: identity.visibility) else {
                throw APIError.notFound("There is no announcement at this address, or it is not shown to you.")
            }
            var page = WebPages.announcement(item, sanitizer: sanitizer)
            page["canEdit"] = (identity.user?.role ?? .reader) >= .editor
            return (item.title, templates.renderMain("announcement", page))
        }
    }

    @Sendable func stylesheet(_ request: Request, context: AppRequestContext) async throws -> Response {
        let entry = CachedResponse(
            body: templates.stylesheet, etag: templates.stylesheetTag,
            headers: [.contentType: "text/css; charset=utf-8", .eTag: templates.stylesheetTag, .cacheControl: "public, max-age=3600"])
        return entry.response(for: request)
    }

    // MARK: The directory

    @Sendable func directory(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let fields = WebForm.parse(request.uri.query ?? "")
        let query = fields["q"].map { String(WebForm.withoutControlCharacters($0).trimmingCharacters(in: .whitespacesAndNewlines).prefix(WebPages.maxSearchLength)) }
            .flatMap { $0.isEmpty ? nil : $0 }
        guard let number = Int(fields["page"] ?? "1"), number >= 1, number <= 1_000_000 else {
            throw APIError.notFound("There is no such page of people.")
        }
        let size = 20
        return try await page("web|people|\(number)|\(query ?? "")", identity: identity, request: request) {
            let (found, total) = try await people.list(PersonListRequest(offset: (number - 1) * size, limit: size, search: query))
            let pages = max(1, (total + size - 1) / size)
            var context: [String: Any] = ["people": found.map(WebPages.personLine), "hasPeople": !found.isEmpty, "total": total]
            context["resultNoun"] = total == 1 ? "person" : "people"
            if let query { context["query"] = query }
            if pages > 1 {
                var paging: [String: Any] = ["page": number, "pages": pages]
                if number > 1 { paging["previous"] = WebPages.listLink(page: number - 1, query: query, path: "/people") }
                if number < pages { paging["next"] = WebPages.listLink(page: number + 1, query: query, path: "/people") }
                context["paging"] = paging
            }
            return (query.map { "People: “\($0)”" } ?? "People", templates.renderMain("people", context))
        }
    }

    @Sendable func personCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try PersonController.personID(context)
        return try await page("web|person|\(id)", identity: identity, request: request) {
            guard let person = try await people.find(id: id) else {
                throw APIError.notFound("There is no person at this address.")
            }
            var manager: StoredPerson?
            if let managerID = person.managerID { manager = try await people.find(id: managerID) }
            let reports = try await people.reports(of: [id])[id] ?? []
            return (person.name, templates.renderMain("person", WebPages.personCard(person, manager: manager, reports: reports)))
        }
    }

    @Sendable func organisation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        return try await page("web|org", identity: identity, request: request) {
            let (graph, roots) = PersonGraph.organisation(try await people.everyone())
            defer { graph.dismantle() }
            let context: [String: Any] = ["roots": WebPages.orgNodes(roots), "hasPeople": !roots.isEmpty, "count": graph.nodes.count]
            return ("Organisation", templates.renderMain("org", context))
        }
    }

    // MARK: Editing announcements

    @Sendable func newForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try requireRole(.editor, identity)
        return editPage(identity, heading: "New announcement", action: "/announcements", cancel: "/", title: "", body: "", revision: nil)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        _ = try requireRole(.editor, identity)
        do {
            let content = try AnnouncementInput.draft(from: Self.announcementJSON(form), sanitizer: sanitizer)(nil)
            let created = try await repository.create(content)
            cache.invalidate()
            return Self.redirect(to: "/announcements/\(created.id)")
        } catch let error as APIError where error.status == .unprocessableContent {
            return editPage(
                identity, heading: "New announcement", action: "/announcements", cancel: "/",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: nil, errors: Self.messages(error), status: .unprocessableContent)
        }
    }

    @Sendable func editForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let item = try await editable(id, identity)
        return editPage(
            identity, heading: "Edit “\(item.title)”", action: "/announcements/\(id)", cancel: "/announcements/\(id)",
            title: item.title, body: item.body ?? "", revision: item.revision)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        let id = try AnnouncementController.announcementID(context)
        let current = try await editable(id, identity)
        // The revision the form was made from: a change made meanwhile is not overwritten.
        let precondition: WritePrecondition = Int(form["revision"] ?? "").map { .revision(in: [$0]) } ?? .none
        let heading = "Edit “\(current.title)”"
        do {
            let replacement = try AnnouncementInput.draft(from: Self.announcementJSON(form), sanitizer: sanitizer)
            _ = try await repository.update(id: id, precondition: precondition) { replacement($0) }
            cache.invalidate()
            return Self.redirect(to: "/announcements/\(id)")
        } catch let error as APIError where error.status == .unprocessableContent {
            return editPage(
                identity, heading: heading, action: "/announcements/\(id)", cancel: "/announcements/\(id)",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: Int(form["revision"] ?? ""),
                errors: Self.messages(error), status: .unprocessableContent)
        } catch let error as APIError where error.status == .preconditionFailed {
            return editPage(
                identity, heading: heading, action: "/announcements/\(id)", cancel: "/announcements/\(id)",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: current.revision,
                errors: ["Someone else changed this announcement after you opened it (it is now titled “\(current.title)”). Your text is below: save again to replace theirs, or cancel."],
                status: .conflict)
        }
    }

    @Sendable func confirmDelete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let item = try await editable(id, identity)
        return confirmPage(
            identity, heading: "Delete “\(item.title)”?", question: "The announcement is removed for everyone. This cannot be undone.",
            action: "/announcements/\(id)/delete", confirm: "Delete the announcement", cancel: "/announcements/\(id)")
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try await checkedForm(request, identity)
        let id = try AnnouncementController.announcementID(context)
        _ = try await editable(id, identity)
        try await repository.delete(id: id, precondition: .none)
        cache.invalidate()
        return Self.redirect(to: "/")
    }

    // MARK: Signing in and out

    @Sendable func loginForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request, formsFollow: true)
        if identity.user != nil { return Self.redirect(to: "/") }
        return loginPage(identity, username: "", error: nil, status: .ok)
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request, formsFollow: true)
        let form = try await checkedForm(request, identity)
        let username = String((form["username"] ?? "").prefix(64))
        do {
            let credentials = try UserInput.login(from: .object(["username": .string(username), "password": .string(form["password"] ?? "")]))
            let session = try await auth.login(username: credentials.username, password: credentials.password)
            var response = Self.redirect(to: "/")
            response.setCookie(WebCookies.sessionCookie(session.token, expiresAt: session.expiresAt, secure: secureCookies))
            response.setCookie(WebCookies.removal(WebCookies.csrf, secure: secureCookies))
            return response
        } catch let error as APIError where [.unauthorized, .tooManyRequests, .unprocessableContent, .badRequest].contains(error.status) {
            let message = error.status == .unprocessableContent ? "Enter your username and password." : error.detail
            return loginPage(identity, username: username, error: message, status: error.status == .tooManyRequests ? .tooManyRequests : .unauthorized)
        }
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try await checkedForm(request, identity)
        if let token = identity.sessionToken {
            try await auth.logout(token: token)
        }
        var response = Self.redirect(to: "/")
        response.setCookie(WebCookies.removal(WebCookies.session, secure: secureCookies))
        return response
    }

    // MARK: Accounts (admins)

    @Sendable func users(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try requireRole(.admin, identity)
        let notice = WebForm.parse(request.uri.query ?? "")["done"].flatMap(Self.notices.index(forKey:)).map { Self.notices[$0].value }
        return try await usersPage(identity, notice: notice, errors: [], status: .ok)
    }

    @Sendable func createUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        _ = try requireRole(.admin, identity)
        do {
            var fields: [String: JSONValue] = [
                "username": .string(form["username"] ?? ""), "role": .string(form["role"] ?? "reader"),
                "password": .string(form["password"] ?? ""),
            ]
            if let name = form["displayName"], !name.trimmingCharacters(in: .whitespaces).isEmpty {
                fields["displayName"] = .string(name)
            }
            let new = try UserInput.newUser(from: .object(fields))
            let hash = try await hasher.hash(new.password)
            _ = try await accounts.createUser(username: new.username, displayName: new.displayName ?? new.username, role: new.role, passwordHash: hash)
            return Self.redirect(to: "/users?done=created")
        } catch let error as APIError where [.unprocessableContent, .conflict].contains(error.status) {
            return try await usersPage(identity, notice: nil, errors: Self.messages(error), status: error.status)
        }
    }

    @Sendable func changeRole(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        _ = try requireRole(.admin, identity)
        let id = try Self.userID(context)
        do {
            let input = try UserInput.changes(from: .object(["role": .string(form["role"] ?? "")]))
            _ = try await accounts.updateUser(id: id, changes: UserChanges(role: input.role))
            return Self.redirect(to: "/users?done=role")
        } catch let error as APIError where error.status == .unprocessableContent {
            return try await usersPage(identity, notice: nil, errors: Self.messages(error), status: error.status)
        }
    }

    @Sendable func confirmDeleteUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try requireRole(.admin, identity)
        let id = try Self.userID(context)
        guard let user = try await accounts.user(id: id) else { throw APIError.notFound("No user has this id.") }
        return confirmPage(
            identity, heading: "Delete the account “\(user.username)”?",
            question: "\(user.displayName) can no longer sign in, and their sessions end. This cannot be undone.",
            action: "/users/\(id)/delete", confirm: "Delete the account", cancel: "/users")
    }

    @Sendable func deleteUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try await checkedForm(request, identity)
        _ = try requireRole(.admin, identity)
        try await accounts.deleteUser(id: try Self.userID(context))
        cache.invalidate()
        return Self.redirect(to: "/users?done=deleted")
    }

    private static let notices = ["created": "The account was created.", "role": "The role was changed.", "deleted": "The account was deleted."]

    // MARK: Pieces

    /// Who sends `request`: a valid session cookie's user, or signed out. A cookie naming a
    /// session that ended is removed with the answer.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - formsFollow: whether the page carries a form a signed-out browser posts (the sign-in
    ///     form): it then gets a CSRF cookie.
    func identity(_ request: Request, formsFollow: Bool = false) async throws -> WebIdentity {
        var clearSession: Cookie?
        if let token = request.cookies[WebCookies.session]?.value, !token.isEmpty {
            do {
                let user = try await auth.user(forToken: token).api
                return WebIdentity(user: user, sessionToken: token, csrf: WebCookies.csrfToken(forSession: token))
            } catch let error as APIError where error.status == .unauthorized {
                clearSession = WebCookies.removal(WebCookies.session, secure: secureCookies)
            }
        }
        if let existing = request.cookies[WebCookies.csrf]?.value, existing.count == 64,
           existing.utf8.allSatisfy({ $0.isASCIIAlphanumeric }) {
            return WebIdentity(user: nil, sessionToken: nil, csrf: existing, cookieToSet: clearSession)
        }
        let fresh = WebCookies.randomToken()
        return WebIdentity(
            user: nil, sessionToken: nil, csrf: fresh,
            cookieToSet: formsFollow ? WebCookies.csrfCookie(fresh, secure: secureCookies) : clearSession)
    }

    /// The form of a `POST`, when it carries the identity's CSRF token.
    ///
    /// - Throws: ``APIError`` 403 without the token (nothing changes), 415 for a body that is
    ///   not a form, 413 above the limit.
    private func checkedForm(_ request: Request, _ identity: WebIdentity) async throws -> [String: String] {
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
    private func requireRole(_ role: UserRole, _ identity: WebIdentity) throws -> User {
        guard let user = identity.user else {
            throw AuthService.unauthorized("Sign in first.")
        }
        guard user.role >= role else {
            throw APIError(status: .forbidden, detail: "This needs the \(role.rawValue) role; you are signed in as a \(user.role.rawValue).")
        }
        return user
    }

    /// Announcement `id` for an editor; a reader gets 404 for one hidden from them, as in the API.
    private func editable(_ id: Int, _ identity: WebIdentity) async throws -> StoredAnnouncement {
        guard identity.user != nil else { throw AuthService.unauthorized("Sign in first.") }
        guard let item = try await repository.find(id: id, visibility: identity.visibility) else {
            throw APIError.notFound("There is no announcement at this address, or it is not shown to you.")
        }
        _ = try requireRole(.editor, identity)
        return item
    }

    /// A page whose main part depends only on what the user may see: that part is built once
    /// per database revision and visibility and kept in the response cache; the layout (who is
    /// signed in, the CSRF token) is added once per session. Signed out, the whole page is kept
    /// and revalidated with its `ETag` (`public`); signed in, it is the session's own
    /// (`private`). A write, or a role change (which empties the cache), builds them anew.
    private func page(
        _ key: String, identity: WebIdentity, request: Request, build: () async throws -> (title: String, main: String)
    ) async throws -> Response {
        let revision: () async throws -> Int64 = { try await repository.currentRevision() }
        // The title's length in bytes first: no character the title may hold (a search text
        // is part of it) can move where the escaped main part begins.
        let fragment = try await cache.answer(for: "web|main|" + key, revision: revision) {
            let (title, main) = try await build()
            return CachedResponse(body: ByteBuffer(string: "\(title.utf8.count):" + title + main), etag: "", headers: [:])
        }
        var buffer = fragment.body
        let length = buffer.readableBytesView.firstIndex(of: UInt8(ascii: ":")).flatMap { colon in
            buffer.readString(length: colon - buffer.readerIndex).flatMap(Int.init)
        } ?? 0
        buffer.moveReaderIndex(forwardBy: 1)
        let title = buffer.readString(length: length) ?? ""
        let main = buffer.readString(length: buffer.readableBytes) ?? ""
        if identity.user == nil, identity.cookieToSet == nil {
            let entry = try await cache.answer(for: "web|page|" + key, revision: revision) {
                var entry = Self.entry(templates.layout(main: main, WebPages.layout(title, identity)))
                entry.headers[.cacheControl] = "public, no-cache"
                return entry
            }
            return entry.response(for: request)
        }
        guard let user = identity.user, identity.cookieToSet == nil else {
            var response = Self.entry(templates.layout(main: main, WebPages.layout(title, identity))).response(for: request)
            if let cookie = identity.cookieToSet { response.setCookie(cookie) }
            return response
        }
        // Per session (its CSRF token is a digest of the session token) and the user's name and
        // role as they are now: the layout shows them and carries the token.
        let who = "\(identity.csrf)|\(user.role.rawValue)|\(user.displayName)"
        let entry = try await cache.answer(for: "web|session|\(who)|" + key, revision: revision) {
            var entry = Self.entry(templates.layout(main: main, WebPages.layout(title, identity)))
            entry.headers[.cacheControl] = "private, no-cache"
            return entry
        }
        return entry.response(for: request)
    }

    private func editPage(
        _ identity: WebIdentity, heading: String, action: String, cancel: String, title: String, body: String, revision: Int?,
        errors: [String] = [], status: HTTPResponse.Status = .ok
    ) -> Response {
        var page = WebPages.layout(heading, identity)
        page["heading"] = heading
        page["action"] = action
        page["cancel"] = cancel
        page["titleValue"] = title
        page["bodyValue"] = body
        if let revision { page["revision"] = revision }
        page["errors"] = errors
        page["hasErrors"] = !errors.isEmpty
        return Self.html(templates.render("edit", page), identity: identity, status: status)
    }

    /// A page asking to confirm a deletion, with the form that does it.
    private func confirmPage(
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

    private func loginPage(_ identity: WebIdentity, username: String, error: String?, status: HTTPResponse.Status) -> Response {
        var page = WebPages.layout("Sign in", identity)
        page["username"] = username
        if let error { page["error"] = error }
        return Self.html(templates.render("login", page), identity: identity, status: status)
    }

    private func usersPage(_ identity: WebIdentity, notice: String?, errors: [String], status: HTTPResponse.Status) async throws -> Response {
        let users = try await accounts.users()
        var page = WebPages.layout("Users", identity)
        page["users"] = users.map { user -> [String: Any] in
            [
                "id": user.id, "username": user.username, "displayName": user.displayName,
                "roles": UserRole.allCases.map { ["name": $0.rawValue, "selected": $0 == user.role] as [String: Any] },
            ]
        }
        page["userCount"] = users.count
        page["errors"] = errors
        page["hasErrors"] = !errors.isEmpty
        if let notice { page["notice"] = notice }
        return Self.html(templates.render("users", page), identity: identity, status: status)
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

    /// The form's announcement fields as the API's JSON: an empty body is none.
    static func announcementJSON(_ form: [String: String]) -> JSONValue {
        let body = (form["body"] ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        return .object([
            "title": .string(form["title"] ?? ""),
            "body": body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? .null : .string(body),
        ])
    }

    /// An error's messages for people: one per invalid field, or its detail.
    static func messages(_ error: APIError) -> [String] {
        guard let fields = error.fieldErrors, !fields.isEmpty else { return [error.detail] }
        return fields.map { "\($0.field.prefix(1).uppercased())\($0.field.dropFirst()) \($0.message)." }
    }

    private static func userID(_ context: AppRequestContext) throws -> Int {
        guard let text = context.parameters.get("id"), let id = Int(text), id > 0, String(id) == text else {
            throw APIError.notFound("No user has this id.")
        }
        return id
    }
}

/// A page handler's failure on its way to ``WebMiddleware``, which makes it a page.
struct WebPageFailure: Error {
    var underlying: any Error
}
