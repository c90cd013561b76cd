import Foundation

/// What a user may do: read, also write announcements, or also manage users.
public enum UserRole: String, Codable, Sendable, CaseIterable, Comparable {
    /// Reads the announcements they may see.
    case reader
    /// Also creates, changes and deletes announcements, and sees every announcement.
    case editor
    /// Also manages users.
    case admin

    /// Orders roles by what they allow.
    public static func < (lhs: UserRole, rhs: UserRole) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .reader: 0
        case .editor: 1
        case .admin: 2
        }
    }
}

/// An account, as the API shows it. Passwords are never part of it.
public struct User: Codable, Sendable, Equatable, Hashable {
    /// The server-assigned id.
    public var id: Int
    /// The sign-in name, unique regardless of letter case.
    public var username: String
    /// The name people see.
    public var displayName: String
    /// What the user may do.
    public var role: UserRole

    /// Creates a user value.
    public init(id: Int, username: String, displayName: String, role: UserRole) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.role = role
    }
}

/// The body of `POST /login`.
public struct LoginRequest: Codable, Sendable, Equatable {
    /// The sign-in name (any letter case).
    public var username: String
    /// The password.
    public var password: String

    /// Creates a login request.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The answer to a successful `POST /login`.
public struct LoginResponse: Codable, Sendable, Equatable {
    /// The bearer token to send as `Authorization: Bearer <token>`; shown only this once.
    public var token: String
    /// When the token stops working.
    public var expiresAt: Date
    /// Who signed in.
    public var user: User

    /// Creates a login response.
    public init(token: String, expiresAt: Date, user: User) {
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
    }
}

/// The body of `POST /users` (admins only).
public struct NewUser: Codable, Sendable, Equatable {
    /// The sign-in name: 1–64 characters of letters, digits, `.`, `_` or `-`.
    public var username: String
    /// The name people see; defaults to the username when empty.
    public var displayName: String
    /// What the user may do.
    public var role: UserRole
    /// At least 8 characters.
    public var password: String

    /// Creates a new-user request.
    public init(username: String, displayName: String, role: UserRole, password: String) {
        self.username = username
        self.displayName = displayName
        self.role = role
        self.password = password
    }
}
