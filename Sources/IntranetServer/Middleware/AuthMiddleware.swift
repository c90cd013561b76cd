import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// Reads the bearer token of a request and puts its user on the context.
///
/// A request without a token reads as signed out; with anonymous reading turned off it is
/// refused (401) except on the routes anyone may call. A token that is malformed, unknown,
/// expired or revoked is always a 401: a client should learn its session ended.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// Routes that never need a token and ignore one.
    static let openPaths: Set<String> = ["/login", "/health", "/openapi.json", "/metrics", FeedController.path]

    /// Whether a path is open: one of ``openPaths``, or an import's progress, which its
    /// unguessable id guards (so that it answers while an import holds SQLite's one connection,
    /// which a session check would wait for).
    static func isOpen(_ path: String) -> Bool {
        openPaths.contains(path) || (path.hasPrefix(ImportProgressBoard.pathPrefix) && path.count > ImportProgressBoard.pathPrefix.count)
    }

    /// Whether the session cookie alone signs `request` in: the live stream's `GET`, which a
    /// browser's `EventSource` makes with no header of its own, only reads, and which another
    /// site's page cannot read (no CORS); and a `GET` or `HEAD` of an attached file, which a
    /// page's `<img>` and a download link make (only reads; the answers say
    /// `Cross-Origin-Resource-Policy: same-origin`, so another site's page cannot show them).
    static func readsWithCookie(_ request: Request) -> Bool {
        (request.method == .get && request.uri.path == EventController.path)
            || ([.get, .head].contains(request.method) && AttachmentFileController.isFilePath(request.uri.path))
    }

    let auth: AuthService
    let allowsAnonymousReading: Bool

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // Checked in this order so the common case, a signed-out read, costs one header lookup.
        guard let header = request.headers[.authorization] else {
            // A browser's session cookie counts only with the CSRF token its pages carry, so a
            // page of another site cannot act through the API as the signed-in user.
            if let token = request.cookies[WebCookies.session]?.value, Self.readsWithCookie(request) {
                return try await next(request, try await signedIn(context, token: token))
            }
            if let csrf = request.headers[.csrfToken], let token = request.cookies[WebCookies.session]?.value,
               WebCookies.constantTimeEqual(csrf, WebCookies.csrfToken(forSession: token)) {
                return try await next(request, try await signedIn(context, token: token))
            }
            guard allowsAnonymousReading || Self.isOpen(request.uri.path) else {
                throw AuthService.unauthorized("This server needs a sign-in for every request. POST /login gives a token.")
            }
            return try await next(request, context)
        }
        if Self.isOpen(request.uri.path) {
            return try await next(request, context)
        }
        guard let token = SessionToken.bearer(in: header) else {
            throw AuthService.unauthorized("Send the token as Authorization: Bearer <token>.", invalidToken: true)
        }
        return try await next(request, try await signedIn(context, token: token))
    }

    /// `context` with the user of session `token`.
    ///
    /// - Throws: 401 when the token is unknown, expired or revoked.
    private func signedIn(_ context: Context, token: String) async throws -> Context {
        var context = context
        let user = try await auth.user(forToken: token).api
        context.user = user
        context.bearerToken = token
        context.accessNote.userID = user.id
        return context
    }
}

extension HTTPField.Name {
    /// `X-CSRF-Token`: with it (the token the web pages carry), a browser's session cookie
    /// authorises API requests too; without it, the cookie is ignored.
    static var csrfToken: Self { Self("X-CSRF-Token")! }
}
