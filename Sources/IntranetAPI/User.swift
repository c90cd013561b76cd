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
///
/// Its description and mirror never show the password.
public struct NewUser: Codable, Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The sign-in name: 1–64 characters of letters, digits, `.`, `_` or `-`.
    public var username: String
    /// The name people see; `nil` (not sent) lets the server use the username.
    public var displayName: String?
    /// What the user may do.
    public var role: UserRole
    /// At least 8 characters.
    public var password: String

    /// Creates a new-user request.
    ///
    /// - Parameters:
    ///   - username: the sign-in name.
    ///   - displayName: the name people see; the username when `nil`.
    ///   - role: what the user may do (a reader by default).
    ///   - password: at least 8 characters.
    public init(username: String, displayName: String? = nil, role: UserRole = .reader, password: String) {
        self.username = username
        self.displayName = displayName
        self.role = role
        self.password = password
    }

    private enum CodingKeys: String, CodingKey { case username, displayName, role, password }

    /// Writes `displayName` only when it is set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(username, forKey: .username)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        try container.encode(role, forKey: .role)
        try container.encode(password, forKey: .password)
    }

    /// The name and role, the password redacted.
    public var description: String {
        "NewUser(username: \(username), displayName: \(displayName ?? "(the username)"), role: \(role.rawValue), password: <redacted>)"
    }

    /// A mirror with the password redacted, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "displayName": displayName as Any, "role": role, "password": "<redacted>"])
    }
}
