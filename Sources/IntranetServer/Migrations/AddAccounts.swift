import FluentKit
import SQLKit

/// Adds accounts, sessions, the login-failure log, per-announcement readers and signing apps.
struct AddAccounts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("username", .string, .required)
            .field("username_key", .string, .required)
            .field("display_name", .string, .required)
            .field("role", .string, .required)
            .field("password_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "username_key")
            .create()
        try await database.schema(SessionModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("token_hash", .string, .required)
            .field("user_id", .int64, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("expires_at", .datetime, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        try await database.schema(LoginFailureModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("username_key", .string, .required)
            .field("failed_at", .datetime, .required)
            .create()
        try await database.createIndex(named: "login_failures_key_idx", on: LoginFailureModel.schema, column: "username_key")
        try await database.schema(AnnouncementModel.schema)
            .field("is_restricted", .bool, .required, .sql(.default(false)))
            .update()
        try await database.schema(ReaderGrantModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("announcement_id", .int64, .required, .references(AnnouncementModel.schema, "id", onDelete: .cascade))
            .field("user_id", .int64, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .unique(on: "announcement_id", "user_id")
            .create()
        try await database.createIndex(named: "announcement_readers_user_idx", on: ReaderGrantModel.schema, column: "user_id")
        try await database.schema(SigningAppModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("app_id", .string, .required)
            .field("name", .string, .required)
            .field("secret", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "app_id")
            .create()
        try await database.schema(UsedSignatureModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("signature", .string, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "signature")
            .create()
        try await database.createIndex(named: "used_signatures_expiry_idx", on: UsedSignatureModel.schema, column: "expires_at")
    }

    func revert(on database: any Database) async throws {
        for schema in [UsedSignatureModel.schema, SigningAppModel.schema, ReaderGrantModel.schema,
                       LoginFailureModel.schema, SessionModel.schema, UserModel.schema] {
            try await database.schema(schema).delete()
        }
        try await database.schema(AnnouncementModel.schema).deleteField("is_restricted").update()
    }
}
