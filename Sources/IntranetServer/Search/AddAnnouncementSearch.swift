import FluentKit
import SQLKit

/// Creates the announcements' full-text index (``AnnouncementSearchIndex``) and indexes every
/// announcement already there.
struct AddAnnouncementSearch: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        switch sql.dialect.name {
        case "sqlite":
            // The words arrive folded and cut by SearchText, separated by spaces, and hold
            // only letters, digits and marks: the ascii tokenizer splits at the spaces and
            // takes everything else beyond ASCII as part of a word, as it should.
            try await sql.raw("""
                CREATE VIRTUAL TABLE \(ident: AnnouncementSearchIndex.table) USING fts5(title, body, tokenize = 'ascii')
                """).run()
        case "postgresql":
            try await sql.raw("""
                CREATE TABLE \(ident: AnnouncementSearchIndex.table) (
                  announcement_id BIGINT PRIMARY KEY REFERENCES announcements (id) ON DELETE CASCADE,
                  document tsvector NOT NULL)
                """).run()
            try await AnnouncementSearchIndex.createPostgresIndex(on: sql)
        default:
            return
        }
        _ = try await database.transaction { try await AnnouncementSearchIndex.rebuild(on: $0, withAttachments: false) }
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw("DROP TABLE IF EXISTS \(ident: AnnouncementSearchIndex.table)").run()
    }
}
