import FluentKit

/// Adds the table that remembers where imported announcements came from.
struct AddImportSources: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ImportSourceModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("announcement_id", .int64, .required, .references(AnnouncementModel.schema, "id", onDelete: .cascade))
            .field("site", .string, .required)
            .field("post_id", .int64, .required)
            .field("fingerprint", .string, .required)
            .unique(on: "site", "post_id")
            .unique(on: "announcement_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ImportSourceModel.schema).delete()
    }
}
