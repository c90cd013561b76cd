import FluentKit
import SQLKit

extension AnnouncementSearchIndex {
    /// Indexes every announcement again from scratch, reading them `chunk` at a time. Run it
    /// in a transaction (as `intranet-server search-index rebuild` does), so that nothing sees
    /// a half-written index. The next chunk's words are cut while the database writes the last
    /// one's.
    ///
    /// On SQLite, searches meanwhile use the old index until the commit. On PostgreSQL the
    /// table is emptied (`TRUNCATE`) and its GIN index dropped first, then filled a hundred rows
    /// a statement and indexed once at the end: several times faster than keeping the index up
    /// to date row by row (100,000 announcements: 51 s instead of 323 s), at the price of a lock
    /// on the index table until the commit: writes of announcements and searches of the
    /// database's index wait (searches answered from an instance's memory do not).
    ///
    /// - Parameter withAttachments: whether to index attachments' names too (the migration that
    ///   made the index ran before attachments existed).
    /// - Returns: how many announcements were indexed.
    @discardableResult
    static func rebuild(on database: any Database, chunk: Int = 500, withAttachments: Bool = true) async throws -> Int {
        guard let sql = database as? any SQLDatabase else { return 0 }
        let isPostgres = sql.dialect.name == "postgresql"
        if isPostgres {
            try await sql.raw("SET LOCAL maintenance_work_mem = '256MB'").run()
            try await sql.raw("DROP INDEX IF EXISTS \(ident: postgresIndex)").run()
            try await sql.raw("TRUNCATE \(ident: table)").run()
        } else {
            try await sql.raw("DELETE FROM \(ident: table)").run()
        }
        struct Row: Decodable { let id: Int; let title: String; let body: String? }
        func read(after last: Int) async throws -> [Row] {
            try await sql.raw("SELECT id, title, body FROM announcements WHERE id > \(bind: last) ORDER BY id LIMIT \(bind: chunk)")
                .all(decoding: Row.self)
        }
        func prepare(_ rows: [Row]) async throws -> [Task<[Prepared], Never>] {
            let names = withAttachments ? try await attachmentNames(of: rows.map(\.id), on: sql) : [:]
            // On SQLite its one writer is what takes longest: cut words beside it on one core.
            // On PostgreSQL the server writes in its own processes: cut on two.
            let half = isPostgres ? rows.count / 2 : 0
            return [rows[..<half], rows[half...]].filter { !$0.isEmpty }.map { part in
                Task.detached {
                    part.map { row in
                        let document = Document(title: row.title, body: row.body, attachmentNames: names[row.id, default: []])
                        return Prepared(id: row.id, document: document, tsvector: isPostgres ? document.tsvector : nil)
                    }
                }
            }
        }
        var rows = try await read(after: 0)
        var pending = try await prepare(rows)
        var count = 0
        while let last = rows.last {
            rows = try await read(after: last.id)
            let following = rows.isEmpty ? nil : try await prepare(rows)
            for part in pending {
                let prepared = await part.value
                if isPostgres {
                    for start in stride(from: 0, to: prepared.count, by: 100) {
                        try await storeOnPostgres(prepared[start..<min(start + 100, prepared.count)], on: sql)
                    }
                } else {
                    for document in prepared {
                        try await store(document.document, id: document.id, on: sql)
                    }
                }
                count += prepared.count
            }
            guard let following else { break }
            pending = following
        }
        if isPostgres { try await createPostgresIndex(on: sql) }
        return count
    }

    /// An announcement's words, cut, and on PostgreSQL written as a `tsvector`.
    private struct Prepared: Sendable {
        var id: Int
        var document: Document
        var tsvector: String?
    }

    /// The GIN index of the `tsvector`s on PostgreSQL.
    static let postgresIndex = "announcement_search_document_idx"

    /// Creates ``postgresIndex``.
    static func createPostgresIndex(on sql: any SQLDatabase) async throws {
        try await sql.raw("CREATE INDEX \(ident: postgresIndex) ON \(ident: table) USING GIN (document) WITH (fastupdate = off)").run()
    }

    /// Writes what is indexed of several announcements on PostgreSQL, in one statement.
    private static func storeOnPostgres(_ documents: ArraySlice<Prepared>, on sql: any SQLDatabase) async throws {
        guard !documents.isEmpty else { return }
        var values: [SQLQueryString] = []
        for prepared in documents {
            values.append("(\(bind: prepared.id), CAST(\(bind: prepared.tsvector ?? prepared.document.tsvector) AS tsvector))")
        }
        try await sql.raw("""
            INSERT INTO \(ident: table) (announcement_id, document) VALUES \(values.joined(separator: ", "))
            ON CONFLICT (announcement_id) DO UPDATE SET document = EXCLUDED.document
            """).run()
    }
}
