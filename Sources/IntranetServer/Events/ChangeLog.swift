import FluentKit
import Foundation
import SQLKit

/// One entry of the change log: what live streams (`GET /events`) tell readers about.
struct ChangeLogEntry: Sendable, Equatable {
    /// What happened.
    enum Kind: String, Sendable {
        /// An announcement was created (readers who may read it see a new one).
        case created
        /// An announcement changed (its content, pin, readers, audience, status or window).
        case changed
        /// An announcement went live for readers: a draft published, or a scheduled post's
        /// moment came. New to readers, changed to editors.
        case published
        /// An announcement was deleted.
        case deleted
        /// A person of the directory was created, changed or deleted.
        case person
        /// Many things changed at once (an import): every client reads again.
        case reset
    }

    /// The entry's place in the log: ids grow in commit order, across every instance.
    var id: Int64
    var kind: Kind
    /// The announcement's or person's id (none for `reset`).
    var subject: Int?
    /// When it was written; for an entry the clock made (a publication, an expiry, the end of a
    /// pin), the moment it came.
    var at: Date
    /// Who could read the announcement before, when the change may have taken readers away.
    var former: FormerReaders?
    /// Whether the clock made it rather than a write.
    var isScheduled = false
}

/// The durable, bounded log of changes that live streams resume from (`change_events`).
///
/// Every write through the ``ChangePipeline`` appends what its subjects were, in the write's own
/// transaction, so the log holds exactly the committed changes. Ids come from one counter row
/// (``counterRow`` of `change_revisions`), raised in the same transaction: on PostgreSQL its row
/// lock makes concurrent writers take ids in the order they commit, so a reader who has seen id
/// *n* has seen every committed entry below it (no entry below *n* can commit later).
///
/// Bounded: ``prune(keeping:olderThan:on:)`` drops entries past the newest `keeping` or older
/// than a moment, and records the highest id dropped (``prunedRow``), so a client resuming
/// from below it is told to read everything again.
enum ChangeLog {
    static let schema = "change_events"
    /// The `change_revisions` row holding the newest id given out.
    static let counterRow = 1_000
    /// The `change_revisions` row holding the highest id pruned.
    static let prunedRow = 1_001

    /// The entries a change's subjects make (their ids still 0): one per announcement or person
    /// it names, and one `reset` for a change of announcements or people that names nothing (an
    /// import).
    static func entries(of change: Change, at now: Date) -> [ChangeLogEntry] {
        var entries: [ChangeLogEntry] = []
        for subject in change.subjects {
            switch subject {
            case .announcement(let id, let action):
                let kind: ChangeLogEntry.Kind = switch action {
                case .created: .created
                case .changed: .changed
                case .published: .published
                case .deleted: .deleted
                }
                entries.append(ChangeLogEntry(id: 0, kind: kind, subject: id, at: now, former: change.formerReaders[id]))
            case .person(let id, _):
                entries.append(ChangeLogEntry(id: 0, kind: .person, subject: id, at: now))
            case .account, .acknowledgement:
                continue
            }
        }
        if change.subjects.isEmpty && !change.domains.isDisjoint(with: [.announcements, .people]) {
            entries.append(ChangeLogEntry(id: 0, kind: .reset, subject: nil, at: now))
        }
        return entries
    }

    /// Appends `entries` inside the caller's transaction, numbering them.
    static func append(_ entries: [ChangeLogEntry], on database: any Database) async throws {
        guard !entries.isEmpty, let sql = database as? any SQLDatabase else { return }
        let newest = try await take(entries.count, on: sql)
        for (offset, entry) in entries.enumerated() {
            try await insert(entry, id: newest - Int64(entries.count - 1 - offset), dedupe: nil, on: sql)
        }
    }

    /// Appends an entry the clock made, once whichever instance notices it first: `key` names
    /// the moment (`published:<id>:<ms>`, `expired:…`, `unpinned:…`), and an entry with the same key is kept
    /// instead. Runs in a transaction of its own.
    static func appendScheduled(_ entry: ChangeLogEntry, key: String, on database: any Database) async throws {
        try await database.transaction { database in
            guard let sql = database as? any SQLDatabase else { return }
            // The counter's row lock first: another instance adding the same entry waits here,
            // then finds it.
            _ = try await take(0, on: sql)
            let exists = try await sql.raw("SELECT 1 AS found FROM \(ident: schema) WHERE dedupe = \(bind: key)").first()
            guard exists == nil else { return }
            let id = try await take(1, on: sql)
            try await insert(entry, id: id, dedupe: key, on: sql)
        }
    }

    /// Raises the counter by `count` (locking its row until the transaction ends) and answers
    /// the newest id now given out.
    private static func take(_ count: Int, on sql: any SQLDatabase) async throws -> Int64 {
        let row = try await sql.raw(
            "UPDATE change_revisions SET value = value + \(bind: count) WHERE id = \(bind: counterRow) RETURNING value").first()
        guard let row else { throw ChangeLogError.missingCounter }
        return try row.decode(column: "value", as: Int64.self)
    }

    private static func insert(_ entry: ChangeLogEntry, id: Int64, dedupe: String?, on sql: any SQLDatabase) async throws {
        let former = try entry.former.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await sql.raw("""
            INSERT INTO \(ident: schema) (id, kind, subject, at, former, dedupe)
            VALUES (\(bind: id), \(bind: entry.kind.rawValue), \(bind: entry.subject), \(bind: entry.at), \(bind: former), \(bind: dedupe))
            """).run()
    }

    /// The entries after `id`, oldest first, at most `limit`.
    static func entries(after id: Int64, limit: Int, on database: any Database) async throws -> [ChangeLogEntry] {
        guard let sql = database as? any SQLDatabase else { return [] }
        let rows = try await sql.raw("""
            SELECT id, kind, subject, at, former, dedupe FROM \(ident: schema)
            WHERE id > \(bind: id) ORDER BY id LIMIT \(bind: limit)
            """).all()
        return try rows.compactMap { row in
            guard let kind = ChangeLogEntry.Kind(rawValue: try row.decode(column: "kind", as: String.self)) else { return nil }
            let former = try row.decodeNil(column: "former")
                ? nil : try JSONDecoder().decode(FormerReaders.self, from: Data(try row.decode(column: "former", as: String.self).utf8))
            return ChangeLogEntry(
                id: try row.decode(column: "id", as: Int64.self), kind: kind, subject: try row.decode(column: "subject", as: Int?.self),
                at: try row.decode(column: "at", as: Date.self), former: former, isScheduled: !(try row.decodeNil(column: "dedupe")))
        }
    }

    /// Where the log stands: the newest id given out, and the highest id pruned (a client that
    /// saw less than that may have missed entries).
    static func bounds(on database: any Database) async throws -> (newest: Int64, pruned: Int64) {
        guard let sql = database as? any SQLDatabase else { return (0, 0) }
        let rows = try await sql.raw(
            "SELECT id, value FROM change_revisions WHERE id IN (\(bind: counterRow), \(bind: prunedRow))").all()
        var newest: Int64 = 0
        var pruned: Int64 = 0
        for row in rows {
            let value = try row.decode(column: "value", as: Int64.self)
            if try row.decode(column: "id", as: Int.self) == counterRow { newest = value } else { pruned = value }
        }
        return (newest, pruned)
    }

    /// Drops the entries past the newest `keeping` and those written before `moment`.
    ///
    /// - Returns: how many were dropped.
    @discardableResult
    static func prune(keeping: Int64, olderThan moment: Date, on database: any Database) async throws -> Int {
        try await database.transaction { database in
            guard let sql = database as? any SQLDatabase else { return 0 }
            _ = try await take(0, on: sql)
            let bounds = try await bounds(on: database)
            let byCount = bounds.newest - keeping
            // By the moment entries were written: the clock's entries carry the moment they
            // name, which a late noticing may put far before the entries around them.
            let byAge = try await sql.raw("SELECT MAX(id) AS id FROM \(ident: schema) WHERE at < \(bind: moment) AND dedupe IS NULL").first()?
                .decode(column: "id", as: Int64?.self) ?? 0
            let through = max(byCount, byAge)
            guard through > bounds.pruned else { return 0 }
            let count = try await sql.raw("SELECT COUNT(*) AS count FROM \(ident: schema) WHERE id <= \(bind: through)").first()?
                .decode(column: "count", as: Int.self) ?? 0
            try await sql.raw("DELETE FROM \(ident: schema) WHERE id <= \(bind: through)").run()
            try await sql.raw("UPDATE change_revisions SET value = \(bind: through) WHERE id = \(bind: prunedRow)").run()
            return count
        }
    }
}

/// Why the change log could not be written.
enum ChangeLogError: Error, CustomStringConvertible {
    case missingCounter

    var description: String { "the change log's counter row is missing (change_revisions id \(ChangeLog.counterRow))" }
}
