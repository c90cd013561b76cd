import FluentKit
import Foundation
import SQLKit

/// The catalog of stored files: one row per distinct content (its SHA-256), whoever uses it,
/// with its size and, once nothing uses it, since when. The bytes are in a ``BlobStore``.
///
/// A file nothing uses (its attachments removed, its announcement deleted) is kept for
/// ``gracePeriod`` before ``sweep(at:blobs:)`` removes it: an editor who removed the wrong file
/// can attach it again without uploading the bytes anew, and a reader who began a download
/// finishes it.
enum StoredFiles {
    static let schema = "stored_files"
    /// How long a file nothing uses is kept: 24 hours.
    static let gracePeriod: TimeInterval = 24 * 60 * 60

    /// The files' count and bytes in all (used or waiting for the clean-up).
    struct Totals: Sendable, Equatable {
        var files: Int
        var bytes: Int64
    }

    /// Records that `hash` (`size` bytes) is used from now on; `true` when it was not stored,
    /// so the caller must write its bytes in the same transaction.
    ///
    /// Concurrent uploads of the same new content: on PostgreSQL the second insert waits for
    /// the first's transaction, then finds the row and writes nothing; a clean-up deleting the
    /// row first makes the insert store it anew, and one deleting it after waits for the
    /// upload's transaction and then finds it used.
    static func use(_ hash: String, size: Int64, at now: Date, on database: any Database) async throws -> Bool {
        let sql = try sql(database)
        if sql.dialect.name == "postgresql" {
            // One statement that locks the row it finds (so a clean-up deleting it waits, then
            // finds it used) and says whether it made it.
            let row = try await sql.raw("""
                INSERT INTO \(ident: schema) (hash, size, created_at, unused_since) VALUES (\(bind: hash), \(bind: size), \(bind: now), NULL)
                ON CONFLICT (hash) DO UPDATE SET unused_since = NULL RETURNING (xmax = 0) AS inserted
                """).first()
            return try row?.decode(column: "inserted", as: Bool.self) ?? true
        }
        // SQLite: the write transaction holds the whole database; nothing runs in between.
        let inserted = try await sql.insert(into: schema).columns("hash", "size", "created_at", "unused_since")
            .values(SQLBind(hash), SQLBind(size), SQLBind(now), SQLLiteral.null)
            .ignoringConflicts(with: ["hash"]).returning("hash").all()
        if inserted.isEmpty {
            try await sql.update(schema).set("unused_since", to: SQLLiteral.null).where("hash", .equal, hash).run()
        }
        return !inserted.isEmpty
    }

    /// Which of `hashes` are stored.
    static func stored(_ hashes: [String], on database: any Database) async throws -> Set<String> {
        guard !hashes.isEmpty else { return [] }
        let rows = try await sql(database).select().column("hash").from(schema).where("hash", .in, hashes).all()
        return Set(try rows.map { try $0.decode(column: "hash", as: String.self) })
    }

    /// Every stored file's count and bytes.
    static func totals(on database: any Database) async throws -> Totals {
        let row = try await sql(database).select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "files")
            // PostgreSQL sums BIGINT as NUMERIC: cast back.
            .column(SQLRaw("CAST(COALESCE(SUM(size), 0) AS BIGINT)"), as: "bytes")
            .from(schema).first()
        return Totals(files: try row?.decode(column: "files", as: Int.self) ?? 0, bytes: try row?.decode(column: "bytes", as: Int64.self) ?? 0)
    }

    /// One pass of the clean-up, in one transaction: files no attachment uses are marked unused
    /// from `now` (a file used again is unmarked), and those unused for longer than
    /// ``gracePeriod`` are removed with their bytes.
    ///
    /// - Returns: the files removed and their bytes.
    @discardableResult
    static func sweep(at now: Date, blobs: any BlobStore, on database: any Database) async throws -> Totals {
        try await database.transaction { database in
            let sql = try sql(database)
            let used: SQLQueryString = """
                (EXISTS (SELECT 1 FROM \(ident: AttachmentModel.schema) a WHERE a.file_hash = \(ident: schema).hash) \
                OR EXISTS (SELECT 1 FROM \(ident: AttachmentVariantModel.schema) v WHERE v.file_hash = \(ident: schema).hash))
                """
            try await sql.raw("UPDATE \(ident: schema) SET unused_since = \(bind: now) WHERE unused_since IS NULL AND NOT \(used)").run()
            try await sql.raw("UPDATE \(ident: schema) SET unused_since = NULL WHERE unused_since IS NOT NULL AND \(used)").run()
            let cutoff = now.addingTimeInterval(-gracePeriod)
            let removed = try await sql.raw(
                "DELETE FROM \(ident: schema) WHERE unused_since < \(bind: cutoff) AND NOT \(used) RETURNING hash, size"
            ).all()
            let hashes = try removed.map { try $0.decode(column: "hash", as: String.self) }
            try await blobs.delete(hashes, on: database)
            return Totals(files: hashes.count, bytes: try removed.reduce(0) { $0 + (try $1.decode(column: "size", as: Int64.self)) })
        }
    }

    private static func sql(_ database: any Database) throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw BlobStoreError.notSQL }
        return sql
    }
}
