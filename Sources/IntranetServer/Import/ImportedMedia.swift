import FluentKit
import Foundation
import SQLKit

/// The media a site's imports brought: one row per file and announcement (`import_media`),
/// naming the attachment it became and the SHA-256 of the bytes read, so that importing again
/// reads nothing already brought, and a post changed since points its new body to the same
/// attachment.
///
/// A row stays when an editor removes its attachment: the import does not bring the file back
/// (the editor meant it), and the body keeps whatever URL it has.
enum ImportedMedia {
    static let schema = "import_media"

    /// One file of one announcement.
    struct Key: Hashable, Sendable {
        /// The file's path below the site's uploads directory.
        var path: String
        var announcementID: Int
    }

    /// Every file the site's imports brought, with the attachment each became.
    static func all(of site: String, on database: any Database) async throws -> [Key: Int] {
        let rows = try await sql(database).select().columns("path", "announcement_id", "attachment_id").from(schema)
            .where("site", .equal, site).all()
        var result: [Key: Int] = [:]
        for row in rows {
            let key = Key(path: try row.decode(column: "path", as: String.self), announcementID: try row.decode(column: "announcement_id", as: Int.self))
            result[key] = try row.decode(column: "attachment_id", as: Int.self)
        }
        return result
    }

    /// Remembers that `key` of `site` became attachment `attachmentID` (uploaded bytes
    /// `sha256`); a concurrent import that remembered it first wins.
    static func remember(_ key: Key, of site: String, attachmentID: Int, sha256: String, at now: Date, on database: any Database) async throws {
        try await sql(database).insert(into: schema)
            .columns("site", "path", "announcement_id", "attachment_id", "sha256", "created_at")
            .values(SQLBind(site), SQLBind(key.path), SQLBind(key.announcementID), SQLBind(attachmentID), SQLBind(sha256), SQLBind(now))
            .ignoringConflicts(with: ["site", "path", "announcement_id"]).run()
    }

    private static func sql(_ database: any Database) throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw BlobStoreError.notSQL }
        return sql
    }
}
