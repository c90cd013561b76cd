import Foundation
import IntranetAPI

/// Whether someone is signed in, derived from the stored session: the "is authenticated" an
/// app shows (a sign-in screen or the content).
///
/// An expired session counts as signed out.
public enum SessionState: Sendable, Equatable {
    /// No session, or only an expired one.
    case signedOut
    /// A session that has not expired, for this user.
    case signedIn(User)

    /// The state of a stored session at a moment.
    ///
    /// - Parameters:
    ///   - session: the stored session, or `nil`.
    ///   - date: the moment (expired sessions are signed out).
    public init(_ session: Session?, at date: Date) {
        guard let session, !session.isExpired(at: date) else {
            self = .signedOut
            return
        }
        self = .signedIn(session.user)
    }

    /// The signed-in user, or `nil` when signed out.
    public var user: User? {
        guard case .signedIn(let user) = self else { return nil }
        return user
    }

    /// Whether someone is signed in.
    public var isAuthenticated: Bool {
        user != nil
    }
}
