import FluentKit
import Foundation

/// A stored account. The password exists only as a bcrypt hash.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class UserModel: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    /// The username as the user typed it.
    @Field(key: "username")
    var username: String

    /// The username in lower case, unique: names differing only in case are the same account.
    @Field(key: "username_key")
    var usernameKey: String

    @Field(key: "display_name")
    var displayName: String

    @Field(key: "role")
    var role: String

    @Field(key: "password_hash")
    var passwordHash: String

    @Field(key: "created_at")
    var createdAt: Date

    init() {}

    init(username: String, displayName: String, role: String, passwordHash: String, createdAt: Date) {
        self.username = username
        self.usernameKey = username.lowercased()
        self.displayName = displayName
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}
