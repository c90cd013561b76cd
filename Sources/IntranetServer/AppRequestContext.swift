import Hummingbird
import IntranetAPI
import Logging

/// The per-request state the middleware chain fills in for the handlers.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The negotiated API version (set by ``VersionMiddleware`` on versioned routes).
    var apiVersion: APIVersion = .latest
    /// The negotiated format of answers (set by ``VersionMiddleware`` on versioned routes).
    var wireFormat: WireFormat = .json
    /// The signed-in user, when the request carries a valid bearer token.
    var user: User?
    /// The bearer token the request carried, when it was valid (for `POST /logout`).
    var bearerToken: String?
    /// What the access log line needs from inner middleware (the signed-in user's id).
    let accessNote = AccessNote()

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// Which announcements the caller may see.
    var visibility: Visibility {
        guard let user else { return .unrestricted }
        return user.role >= .editor ? .everything : .reader(userID: user.id)
    }

    /// The signed-in user, if their role is at least `role`.
    ///
    /// - Throws: ``APIError`` 401 when nobody is signed in, 403 when the role is too low.
    func requireRole(_ role: UserRole) throws -> User {
        guard let user else {
            throw AuthService.unauthorized("Sign in first: send Authorization: Bearer <token> (POST /login gives one).")
        }
        guard user.role >= role else {
            throw APIError(status: .forbidden, detail: "This needs the \(role.rawValue) role; your role is \(user.role.rawValue).")
        }
        return user
    }
}
