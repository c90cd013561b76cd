import RESTRepository

/// What ``SessionRepository/logout()`` achieved. In every case the session is gone from this
/// client and its ``SessionStore``; the cases differ in what the server knows.
public enum LogoutOutcome: Sendable {
    /// The server revoked the token (204): it stops working everywhere at once.
    case revoked
    /// The token no longer worked anyway: the server answered 401, or it had expired here and
    /// was not sent.
    case alreadyInvalid
    /// Nobody was signed in; no request was sent.
    case notSignedIn
    /// The server could not be told (unreachable, time-out, 5xx…): signed out here, but the
    /// token stays valid on the server until it expires. `error` says why.
    case notRevoked(RepositoryError)

    /// Whether the token is known to be unusable now (revoked, invalid, or there was none).
    public var isTokenDead: Bool {
        if case .notRevoked = self { return false }
        return true
    }

    /// A short sentence for people, e.g. for a terminal client's `logout`.
    public var userMessage: String {
        switch self {
        case .revoked: "Signed out."
        case .alreadyInvalid: "Signed out (the session had already ended)."
        case .notSignedIn: "Not signed in."
        case .notRevoked(let error):
            "Signed out on this device, but the server was not told (\(error.userMessage)); "
                + "the session stays valid on the server until it expires."
        }
    }
}
