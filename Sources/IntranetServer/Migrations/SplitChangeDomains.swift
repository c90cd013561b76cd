import FluentKit
import SQLKit

/// Gives each ``ChangeDomain`` its own revision and its own name in the change feed, so that a
/// write to one domain leaves what other instances remember of the others in place.
///
/// - `change_revisions` gains one row per domain (announcements keep row 1, and its count).
/// - On PostgreSQL the triggers of ``AddChangeNotifications`` and ``CreatePeople`` are made
///   again naming their table's domain (`announcements`, `people`, `accounts`) instead of the
///   former `content`, which told nothing of which part changed.
struct SplitChangeDomains: AsyncMigration {
    /// Each watched table, the statements that count, whether for each row, and its domain.
    static let watched: [(trigger: String, table: String, events: String, level: String, domain: ChangeDomain)] = [
        (AnnouncementModel.schema + "_changed", AnnouncementModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "STATEMENT", .announcements),
        (ReaderGrantModel.schema + "_changed", ReaderGrantModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "STATEMENT", .announcements),
        (PersonModel.schema + "_changed", PersonModel.schema, "INSERT OR DELETE OR TRUNCATE", "STATEMENT", .people),
        // Deleting an account runs the foreign key's `SET NULL` on people as an update, which a
        // statement trigger would announce even when no one was linked to the account.
        (PersonModel.schema + "_rows_changed", PersonModel.schema, "UPDATE", "ROW", .people),
        (UserModel.schema + "_changed", UserModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "STATEMENT", .accounts),
        // Sign-ins (inserts) cannot make anything remembered wrong.
        (SessionModel.schema + "_changed", SessionModel.schema, "UPDATE OR DELETE OR TRUNCATE", "STATEMENT", .accounts),
    ]

    func prepare(on database: any Database) async throws {
        let existing = Set(try await RevisionModel.query(on: database).all().compactMap(\.id))
        for domain in ChangeDomain.allCases where !existing.contains(domain.revisionRow) {
            try await RevisionModel(id: domain.revisionRow, value: 0).create(on: database)
        }
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        for (trigger, table, events, level, domain) in Self.watched {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: trigger) ON \(ident: table)").run()
            try await sql.raw("""
                CREATE TRIGGER \(unsafeRaw: trigger) AFTER \(unsafeRaw: events) ON \(ident: table)
                FOR EACH \(unsafeRaw: level) EXECUTE FUNCTION intranet_notify_change('\(unsafeRaw: domain.name)')
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await RevisionModel.query(on: database).filter(\.$id != ChangeDomain.announcements.revisionRow).delete()
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        for (trigger, table, _, _, _) in Self.watched {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: trigger) ON \(ident: table)").run()
        }
        // As the earlier migrations made them: one statement trigger per table, two kinds.
        for (table, events, kind) in [
            (AnnouncementModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "content"),
            (ReaderGrantModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "content"),
            (PersonModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "content"),
            (UserModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "accounts"),
            (SessionModel.schema, "UPDATE OR DELETE OR TRUNCATE", "accounts"),
        ] {
            try await sql.raw("""
                CREATE TRIGGER \(unsafeRaw: table)_changed AFTER \(unsafeRaw: events) ON \(ident: table)
                FOR EACH STATEMENT EXECUTE FUNCTION intranet_notify_change('\(unsafeRaw: kind)')
                """).run()
        }
    }
}
