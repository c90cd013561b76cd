import Foundation

/// A signed-in session: the answer to `POST /login`.
public struct Session: Codable, Sendable, Equatable {
    /// The bearer token; keep it secret (it is never logged).
    public var token: String
    /// When the token stops working.
    public var expiresAt: Date
    /// Who signed in.
    public var user: IntranetUser

    /// Creates a session.
    public init(token: String, expiresAt: Date, user: IntranetUser) {
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
    }

    /// Whether the token has expired at `date`.
    public func isExpired(at date: Date = Date()) -> Bool {
        date >= expiresAt
    }
}
