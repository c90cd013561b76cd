import FluentKit
import Foundation

/// One failed login for a username, kept in the database so every server instance counts the
/// same failures.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class LoginFailureModel: Model, @unchecked Sendable {
    static let schema = "login_failures"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "username_key")
    var usernameKey: String

    @Field(key: "failed_at")
    var failedAt: Date

    init() {}

    init(usernameKey: String, failedAt: Date) {
        self.usernameKey = usernameKey
        self.failedAt = failedAt
    }
}
