import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import IntranetHTML
import NIOCore

/// Signing in and out, and the admins' account pages (create, change a role, delete).
extension WebController {
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
        let id = try UserController.userID(context)
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
        let id = try UserController.userID(context)
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
        try await accounts.deleteUser(id: try UserController.userID(context))
        return Self.redirect(to: "/users?done=deleted")
    }

    static let notices = ["created": "The account was created.", "role": "The role was changed.", "deleted": "The account was deleted."]

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

    func loginPage(_ identity: WebIdentity, username: String, error: String?, status: HTTPResponse.Status) -> Response {
        var page = WebPages.layout("Sign in", identity)
        page["username"] = username
        if let error { page["error"] = error }
        return Self.html(templates.render("login", page), identity: identity, status: status)
    }

    func usersPage(_ identity: WebIdentity, notice: String?, errors: [String], status: HTTPResponse.Status) async throws -> Response {
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
    }}
