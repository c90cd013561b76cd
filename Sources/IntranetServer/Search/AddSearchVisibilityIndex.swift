import FluentKit
import SQLKit

/// On SQLite, an index holding every column a search's visibility filter and order read
/// (status, restriction, publication and expiry, creation time), keyed by id: a search checks
/// each announcement its words matched in this index instead of in the table, whose rows carry
/// the whole body (many pages of text each, since the columns added later sit after it).
/// PostgreSQL keeps long bodies out of its rows, so it needs none.
struct AddSearchVisibilityIndex: AsyncMigration {
    static let name = "announcements_visible_idx"

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else { return }
        try await sql.raw("""
            CREATE INDEX IF NOT EXISTS \(ident: Self.name) ON \(ident: AnnouncementModel.schema)
              (id, status, is_restricted, publish_at, expires_at, created_at)
            """).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "sqlite" else { return }
        try await sql.raw("DROP INDEX IF EXISTS \(ident: Self.name)").run()
    }
}
