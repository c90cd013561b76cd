/// What ``SessionRepository/logout()`` achieved. In every case the session is gone from this
/// client; ``server`` says what the server knows, ``storeFailure`` whether the stored copy
/// (a session file, say) could not be deleted.
public struct LogoutOutcome: Sendable {
    /// What the server knows of the token after the logout.
    public enum Server: Sendable {
        /// The server revoked the token (204): it stops working everywhere at once.
        case revoked
        /// The token no longer worked anyway: the server answered 401, or it had expired here
        /// and was not sent.
        case alreadyInvalid
        /// Nobody was signed in; no request was sent.
        case notSignedIn
        /// The server could not be told (unreachable, time-out, 5xx…): the token stays valid
        /// on the server until it expires. The error says why.
        case notRevoked(RepositoryError)
    }

    /// What the server knows now.
    public var server: Server
    /// `RepositoryError.localStore` when the ``SessionStore`` could not delete its copy:
    /// signed out in this process, but a later one may load the session again.
    public var storeFailure: RepositoryError?

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - server: what the server knows now.
    ///   - storeFailure: the store's failure to delete the session, if any.
    public init(server: Server, storeFailure: RepositoryError? = nil) {
        self.server = server
        self.storeFailure = storeFailure
    }

    /// Whether the token is known to be unusable now (revoked, invalid, or there was none).
    public var isTokenDead: Bool {
        if case .notRevoked = server { return false }
        return true
    }

    /// A short sentence for people, e.g. for a terminal client's `logout`.
    public var userMessage: String {
        var message: String
        switch server {
        case .revoked: message = "Signed out."
        case .alreadyInvalid: message = "Signed out (the session had already ended)."
        case .notSignedIn: message = "Not signed in."
        case .notRevoked(let error):
            message = "Signed out on this device, but the server was not told (\(error.userMessage)); "
                + "the session stays valid on the server until it expires."
        }
        if case .localStore(let underlying)? = storeFailure {
            message += " The saved session could not be deleted (\(underlying)); delete it by hand."
        } else if let storeFailure {
            message += " The saved session could not be deleted (\(storeFailure.userMessage)); delete it by hand."
        }
        return message
    }
}
