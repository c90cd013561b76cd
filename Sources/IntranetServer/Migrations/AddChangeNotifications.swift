import FluentKit
import SQLKit

/// On PostgreSQL, makes every committed change to announcements, readers, users and sessions
/// send a notification that ``ChangeFeed`` listens for: `<schema>:content` or
/// `<schema>:accounts` on ``ChangeFeed/channel``, once per kind and transaction (PostgreSQL
/// folds identical notifications of one transaction). Triggers, not the server's own code, send
/// them, so changes made by any tool on the database (`intranet-server users`, psql) count too.
///
/// Session inserts (sign-ins) and login failures send nothing: they cannot make anything
/// remembered wrong. SQLite needs none of this; the migration does nothing there.
struct AddChangeNotifications: AsyncMigration {
    /// The tables watched, the statements that count, and the kind of change they make.
    private static let watched: [(table: String, events: String, kind: String)] = [
        (AnnouncementModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "content"),
        (ReaderGrantModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "content"),
        (UserModel.schema, "INSERT OR UPDATE OR DELETE OR TRUNCATE", "accounts"),
        (SessionModel.schema, "UPDATE OR DELETE OR TRUNCATE", "accounts"),
    ]

    func prepare(on database: any Database) async throws {
        guard let sql = Self.postgres(database) else { return }
        try await sql.raw("""
            CREATE OR REPLACE FUNCTION intranet_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('\(unsafeRaw: ChangeFeed.channel)', TG_TABLE_SCHEMA || ':' || TG_ARGV[0]);
                RETURN NULL;
            END
            $$
            """).run()
        for (table, events, kind) in Self.watched {
            try await sql.raw("""
                CREATE TRIGGER \(unsafeRaw: table)_changed AFTER \(unsafeRaw: events) ON \(ident: table)
                FOR EACH STATEMENT EXECUTE FUNCTION intranet_notify_change('\(unsafeRaw: kind)')
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        guard let sql = Self.postgres(database) else { return }
        for (table, _, _) in Self.watched {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: table)_changed ON \(ident: table)").run()
        }
        try await sql.raw("DROP FUNCTION IF EXISTS intranet_notify_change()").run()
    }

    private static func postgres(_ database: any Database) -> (any SQLDatabase)? {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return nil }
        return sql
    }
}
