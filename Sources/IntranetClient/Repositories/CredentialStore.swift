import Foundation

/// Holds the current session so every request of an ``IntranetClient`` can send its token.
///
/// An actor: logins, logouts and requests happen on many tasks at once.
public actor CredentialStore {
    /// The current session, or `nil` when signed out.
    public private(set) var session: Session?

    /// Creates an empty store (signed out).
    public init() {}

    /// The token to send now: `nil` when signed out or expired.
    public var token: String? {
        guard let session, !session.isExpired() else { return nil }
        return session.token
    }

    /// Replaces the session (`nil` signs out).
    public func set(_ session: Session?) {
        self.session = session
    }
}
