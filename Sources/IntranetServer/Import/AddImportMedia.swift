import FluentKit

/// Adds the table of media brought by WordPress imports (``ImportedMedia``); its rows go with
/// their announcement.
struct AddImportMedia: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ImportedMedia.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("site", .string, .required)
            .field("path", .string, .required)
            .field("announcement_id", .int64, .required, .references(AnnouncementModel.schema, "id", onDelete: .cascade))
            .field("attachment_id", .int64, .required)
            .field("sha256", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "site", "path", "announcement_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ImportedMedia.schema).delete()
    }
}
