import FluentKit
import SQLKit

/// Publishing (API 3.0): each announcement gains its status, its times (publication, expiry,
/// end of pin), pin and importance flags, whether it names readers (`has_readers`; until now
/// `is_restricted` meant that, and now means "not for everyone": named readers or an audience),
/// and its Markdown source when written in Markdown. Audiences (departments, and teams by the
/// person at their head) get a table of their own (``WatchAudiences`` has the change feed watch
/// it on PostgreSQL, once the feed's function exists).
struct AddPublishing: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite alters a table one column at a time.
        let columns: [(String, DatabaseSchema.DataType, [DatabaseSchema.FieldConstraint])] = [
            ("status", .string, [.required, .sql(.default("published"))]),
            ("publish_at", .datetime, []),
            ("expires_at", .datetime, []),
            ("pinned", .bool, [.required, .sql(.default(false))]),
            ("pinned_at", .datetime, []),
            ("pinned_until", .datetime, []),
            ("important", .bool, [.required, .sql(.default(false))]),
            ("has_readers", .bool, [.required, .sql(.default(false))]),
            ("body_markdown", .string, []),
        ]
        for (name, type, constraints) in columns {
            try await database.schema(AnnouncementModel.schema)
                .field(.definition(name: .key(.string(name)), dataType: type, constraints: constraints)).update()
        }
        if let sql = database as? any SQLDatabase {
            try await sql.update(AnnouncementModel.schema).set("has_readers", to: SQLColumn("is_restricted")).run()
        }
        for column in ["publish_at", "expires_at", "pinned_until"] {
            try await database.createIndex(named: "announcements_\(column)_idx", on: AnnouncementModel.schema, column: column)
        }
        try await database.schema(AudienceModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("announcement_id", .int64, .required, .references(AnnouncementModel.schema, "id", onDelete: .cascade))
            .field("department", .string)
            .field("team_id", .int64)
            .create()
        try await database.createIndex(named: "announcement_audiences_announcement_idx", on: AudienceModel.schema, column: "announcement_id")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AudienceModel.schema).delete()
        for column in ["status", "publish_at", "expires_at", "pinned", "pinned_at", "pinned_until", "important", "has_readers", "body_markdown"] {
            try await database.schema(AnnouncementModel.schema).deleteField(.string(column)).update()
        }
    }
}

/// On PostgreSQL, makes a committed change to audiences a change of announcements in the change
/// feed, as one to readers is (``SplitChangeDomains``).
struct WatchAudiences: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        try await sql.raw("""
            CREATE TRIGGER \(unsafeRaw: AudienceModel.schema)_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
            ON \(ident: AudienceModel.schema)
            FOR EACH STATEMENT EXECUTE FUNCTION intranet_notify_change('\(unsafeRaw: ChangeDomain.announcements.name)')
            """).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: AudienceModel.schema)_changed ON \(ident: AudienceModel.schema)").run()
    }
}
