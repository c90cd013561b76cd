import FluentKit
import SQLKit

/// On PostgreSQL, makes the change feed name the account a change of users or sessions concerns
/// (`<schema>:accounts:<user id>`), so that another instance's logout or role change forgets the
/// sessions of that account only, not every session each instance remembers (a whole company
/// signed in would otherwise be looked up again at each logout anywhere).
///
/// Row triggers on `UPDATE OR DELETE` of users and sessions name the account (the id, or the
/// session's `user_id`); a new user and `TRUNCATE` still name the domain alone, and forget every
/// session. Sign-ins (new sessions) are still announced to nobody.
struct NameChangedAccounts: AsyncMigration {
    /// Each table, the column holding the account's id, and the triggers it had before.
    private static let tables: [(table: String, idColumn: String, statementEvents: String, formerEvents: String)] = [
        (UserModel.schema, "id", "INSERT OR TRUNCATE", "INSERT OR UPDATE OR DELETE OR TRUNCATE"),
        (SessionModel.schema, "user_id", "TRUNCATE", "UPDATE OR DELETE OR TRUNCATE"),
    ]

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        try await sql.raw("""
            CREATE OR REPLACE FUNCTION intranet_notify_account_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('\(unsafeRaw: ChangeFeed.channel)', TG_TABLE_SCHEMA || ':accounts:' || (to_jsonb(OLD) ->> TG_ARGV[0]));
                RETURN NULL;
            END
            $$
            """).run()
        for (table, idColumn, statementEvents, _) in Self.tables {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: table)_changed ON \(ident: table)").run()
            try await sql.raw("""
                CREATE TRIGGER \(unsafeRaw: table)_changed AFTER \(unsafeRaw: statementEvents) ON \(ident: table)
                FOR EACH STATEMENT EXECUTE FUNCTION intranet_notify_change('accounts')
                """).run()
            try await sql.raw("""
                CREATE TRIGGER \(unsafeRaw: table)_rows_changed AFTER UPDATE OR DELETE ON \(ident: table)
                FOR EACH ROW EXECUTE FUNCTION intranet_notify_account_change('\(unsafeRaw: idColumn)')
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        for (table, _, _, formerEvents) in Self.tables {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: table)_rows_changed ON \(ident: table)").run()
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: table)_changed ON \(ident: table)").run()
            try await sql.raw("""
                CREATE TRIGGER \(unsafeRaw: table)_changed AFTER \(unsafeRaw: formerEvents) ON \(ident: table)
                FOR EACH STATEMENT EXECUTE FUNCTION intranet_notify_change('accounts')
                """).run()
        }
        try await sql.raw("DROP FUNCTION IF EXISTS intranet_notify_account_change()").run()
    }
}
