import FluentKit

/// Creates the `announcements` table and the indexes the list sorts use.
struct CreateAnnouncements: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AnnouncementModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("title", .string, .required)
            .field("body", .string)
            .field("revision", .int64, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(RevisionModel.schema)
            .field("id", .int64, .identifier(auto: false))
            .field("value", .int64, .required)
            .create()
        try await RevisionModel(id: RevisionModel.announcementsKey, value: 0).create(on: database)
        for column in ["title", "created_at", "updated_at"] {
            try await database.createIndex(
                named: "announcements_\(column)_idx", on: AnnouncementModel.schema, column: column)
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RevisionModel.schema).delete()
        try await database.schema(AnnouncementModel.schema).delete()
    }
}
