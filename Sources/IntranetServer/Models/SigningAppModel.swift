import FluentKit
import Foundation

/// An app registered to sign its requests.
///
/// The secret is stored as it is: verifying an HMAC needs the key itself, so unlike passwords
/// and tokens it cannot be kept as a hash. It is shown once, when the app is registered.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class SigningAppModel: Model, @unchecked Sendable {
    static let schema = "signing_apps"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "app_id")
    var appID: String

    @Field(key: "name")
    var name: String

    @Field(key: "secret")
    var secret: String

    @Field(key: "created_at")
    var createdAt: Date

    init() {}

    init(appID: String, name: String, secret: String, createdAt: Date) {
        self.appID = appID
        self.name = name
        self.secret = secret
        self.createdAt = createdAt
    }
}

/// A signature already accepted, kept until it is too old to be accepted anyway, so that a
/// replay is refused by every server instance.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class UsedSignatureModel: Model, @unchecked Sendable {
    static let schema = "used_signatures"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "signature")
    var signature: String

    @Field(key: "expires_at")
    var expiresAt: Date

    init() {}

    init(signature: String, expiresAt: Date) {
        self.signature = signature
        self.expiresAt = expiresAt
    }
}
