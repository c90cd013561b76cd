import FluentKit
import Logging
import SQLKit

/// Indexes people's folded search text so that `GET /people?q=` does not read every row:
///
/// - SQLite: an FTS5 table with the trigram tokenizer over `search_key` (external content, kept
///   in step by triggers), which answers `LIKE '%text%'` for texts of three characters or more;
/// - PostgreSQL: a GIN index with `pg_trgm`'s trigram operator class, which the planner uses
///   for the same `LIKE`; without GIN's pending list (`fastupdate = off`: a write updates the
///   index at once), which otherwise grows with every write until a vacuum and makes the
///   planner prefer reading the whole table (measured: 37 ms against 2.5 ms for 100,000 people). The extension is created (in `public`) when the database user may;
///   otherwise, unless an administrator created it already, the search stays unindexed (it still
///   works) and a warning says what to run.
struct AddPeopleSearchIndex: AsyncMigration {
    /// The FTS5 table on SQLite.
    static let ftsTable = "people_search"
    /// The advisory lock that serialises creating the extension.
    private static let extensionLock = 7_301_101

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        if sql.dialect.name == "sqlite" {
            try await sql.raw("""
                CREATE VIRTUAL TABLE \(ident: Self.ftsTable) USING fts5(search_key, tokenize = 'trigram', content = 'people', content_rowid = 'id')
                """).run()
            try await sql.raw("""
                CREATE TRIGGER people_search_insert AFTER INSERT ON people BEGIN
                  INSERT INTO people_search(rowid, search_key) VALUES (new.id, new.search_key);
                END
                """).run()
            try await sql.raw("""
                CREATE TRIGGER people_search_delete AFTER DELETE ON people BEGIN
                  INSERT INTO people_search(people_search, rowid, search_key) VALUES ('delete', old.id, old.search_key);
                END
                """).run()
            try await sql.raw("""
                CREATE TRIGGER people_search_update AFTER UPDATE OF search_key ON people BEGIN
                  INSERT INTO people_search(people_search, rowid, search_key) VALUES ('delete', old.id, old.search_key);
                  INSERT INTO people_search(rowid, search_key) VALUES (new.id, new.search_key);
                END
                """).run()
            try await sql.raw("INSERT INTO people_search(people_search) VALUES ('rebuild')").run()
        } else if sql.dialect.name == "postgresql" {
            try await Self.ensurePostgresIndex(on: database)
        }
    }

    /// Creates the trigram index on PostgreSQL when it is missing and can be made: run by this
    /// migration and again at every start, so an extension an administrator creates later is
    /// used from the next start on (the migration itself runs once).
    static func ensurePostgresIndex(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        struct Found: Decodable { let found: Bool }
        let exists = try await sql.raw("""
            SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'people_search_key_trgm_idx') AS found
            """).first(decoding: Found.self)
        guard exists?.found != true else { return }
        // One connection, and one instance at a time: CREATE EXTENSION IF NOT EXISTS is not
        // safe against another session doing the same.
        try await database.transaction { database in
            guard let sql = database as? any SQLDatabase else { return }
            try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: Self.extensionLock))").run()
            guard let schema = try await Self.trigramSchema(on: sql, logger: database.logger) else { return }
            try await sql.raw("""
                CREATE INDEX IF NOT EXISTS people_search_key_trgm_idx ON \(ident: PersonModel.schema)
                USING gin (search_key \(ident: schema).gin_trgm_ops) WITH (fastupdate = off)
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        if sql.dialect.name == "sqlite" {
            for trigger in ["people_search_insert", "people_search_delete", "people_search_update"] {
                try await sql.raw("DROP TRIGGER IF EXISTS \(ident: trigger)").run()
            }
            try await sql.raw("DROP TABLE IF EXISTS \(ident: Self.ftsTable)").run()
        } else {
            try await sql.raw("DROP INDEX IF EXISTS people_search_key_trgm_idx").run()
        }
    }

    /// The schema holding `pg_trgm`, creating the extension in `public` when it is missing
    /// and this user may; `nil` (after a warning) when it cannot be had.
    private static func trigramSchema(on sql: any SQLDatabase, logger: Logger) async throws -> String? {
        struct Row: Decodable { let schema: String }
        let existing = "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'"
        if let row = try await sql.raw(SQLQueryString(existing)).first(decoding: Row.self) { return row.schema }
        struct Allowed: Decodable { let allowed: Bool }
        let check = try await sql.raw("""
            SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm')
               AND has_database_privilege(current_user, current_database(), 'CREATE')
               AND has_schema_privilege(current_user, 'public', 'CREATE') AS allowed
            """).first(decoding: Allowed.self)
        guard check?.allowed == true else {
            logger.warning("people search is not indexed: pg_trgm is missing; as a superuser run CREATE EXTENSION pg_trgm, then restart the server")
            return nil
        }
        try await sql.raw("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public").run()
        return "public"
    }
}
