import FluentKit
import Foundation

/// A signed-in session. Only the SHA-256 of its token is stored, so a leaked table cannot be
/// replayed.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class SessionModel: Model, @unchecked Sendable {
    static let schema = "sessions"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "token_hash")
    var tokenHash: String

    @Field(key: "user_id")
    var userID: Int

    @Field(key: "expires_at")
    var expiresAt: Date

    @Field(key: "created_at")
    var createdAt: Date

    init() {}

    init(tokenHash: String, userID: Int, expiresAt: Date, createdAt: Date) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }
}
