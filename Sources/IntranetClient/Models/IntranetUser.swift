/// A user account as the intranet reports it (`GET /users/me`, the `user` of a login).
/// Passwords never travel in this type.
public struct IntranetUser: Codable, Sendable, Equatable, Identifiable {
    /// What a user may do.
    ///
    /// A struct rather than an enum, so a role added by a newer server still decodes.
    public struct Role: RawRepresentable, Codable, Sendable, Hashable {
        /// Reads announcements.
        public static let reader = Role(rawValue: "reader")
        /// Also creates, changes and deletes announcements.
        public static let editor = Role(rawValue: "editor")
        /// Also manages users.
        public static let admin = Role(rawValue: "admin")

        /// The role's name on the wire.
        public var rawValue: String

        /// Creates a role from its wire name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Decodes a role from its name.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes the role as its name.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// The server-assigned id.
    public var id: Int
    /// The sign-in name, unique regardless of case.
    public var username: String
    /// The name shown to people.
    public var displayName: String
    /// What the user may do.
    public var role: Role

    /// Creates a user.
    public init(id: Int, username: String, displayName: String, role: Role) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.role = role
    }

    /// Whether the user may create, change and delete announcements.
    public var canEditAnnouncements: Bool {
        role == .editor || role == .admin
    }
}
