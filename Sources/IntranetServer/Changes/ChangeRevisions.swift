import FluentKit
import SQLKit

/// The revision counters in the database (`change_revisions`, one row per ``ChangeDomain``):
/// every write transaction adds one to the rows of the domains it changed, so an instance that
/// cannot trust its memory (PostgreSQL without a live change feed) tells in one query whether
/// another instance wrote since it last looked.
enum ChangeRevisions {
    /// Adds one to the revision of each domain in `domains`, inside the caller's transaction.
    ///
    /// - Returns: the revisions the write made.
    @discardableResult
    static func bump(_ domains: ChangeDomains, on database: any Database) async throws -> [ChangeDomain: Int64] {
        guard !domains.isEmpty, let sql = database as? any SQLDatabase else { return [:] }
        let rows = domains.members.map(\.revisionRow)
        let updated = try await sql.raw("UPDATE change_revisions SET value = value + 1 WHERE id IN (\(binds: rows)) RETURNING id, value").all()
        return try revisions(of: updated)
    }

    /// Every domain's revision as the database holds it now.
    static func read(on database: any Database) async throws -> [ChangeDomain: Int64] {
        guard let sql = database as? any SQLDatabase else { return [:] }
        return try revisions(of: try await sql.raw("SELECT id, value FROM change_revisions").all())
    }

    private static func revisions(of rows: [any SQLRow]) throws -> [ChangeDomain: Int64] {
        var revisions: [ChangeDomain: Int64] = [:]
        for row in rows {
            let id = try row.decode(column: "id", as: Int.self)
            guard let domain = ChangeDomain.allCases.first(where: { $0.revisionRow == id }) else { continue }
            revisions[domain] = try row.decode(column: "value", as: Int64.self)
        }
        return revisions
    }
}
