import Foundation
import IntranetAPI

/// A signed-in session: the token, when it expires, and who signed in, as `POST /login`
/// answered it and as a ``SessionStore`` keeps it.
///
/// Its descriptions and mirror never show the token, so `print(session)` and `dump(session)`
/// cannot leak it into a log.
public struct Session: Codable, Sendable, Equatable {
    /// The bearer token; keep it secret (it is never logged).
    public var token: String
    /// When the token stops working.
    public var expiresAt: Date
    /// Who signed in.
    public var user: User

    /// Creates a session.
    public init(token: String, expiresAt: Date, user: User) {
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
    }

    /// The session a successful login answered.
    ///
    /// - Parameter response: the body of `POST /login`.
    init(_ response: LoginResponse) {
        self.init(token: response.token, expiresAt: response.expiresAt, user: response.user)
    }

    /// Whether the token has expired at `date`.
    public func isExpired(at date: Date = Date()) -> Bool {
        date >= expiresAt
    }
}

extension Session: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The user and expiry, with the token redacted.
    public var description: String {
        "Session(user: \(user.username), role: \(user.role.rawValue), expiresAt: \(IntranetJSON.format(expiresAt)), token: <redacted>)"
    }

    /// The same as ``description``: the token stays hidden in debug output too.
    public var debugDescription: String { description }

    /// A mirror without the token, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(self, children: ["user": user, "expiresAt": expiresAt, "token": "<redacted>"])
    }
}
