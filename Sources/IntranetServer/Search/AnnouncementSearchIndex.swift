import FluentKit
import Foundation
import IntranetHTML
import SQLKit

/// The announcements' full-text index, kept in the database beside them and written in the
/// same transaction as each announcement, so a write is found at once, on every instance.
///
/// Both databases store the words ``SearchText`` cuts (folded, ideographs in pairs), so they
/// find the same announcements:
/// - SQLite: the FTS5 table `announcement_search(title, body)`, its rowid the announcement's id;
/// - PostgreSQL: the table `announcement_search(announcement_id, document)`, `document` a
///   `tsvector` written word by word (the title's words weighted `A`, the body's `B`) rather
///   than through a text search configuration, with a GIN index.
///
/// The body is indexed as plain text (markup removed), its first ``maxIndexedCharacters``,
/// followed by the names of the announcement's attachments ("canteen-menu.pdf" finds it).
enum AnnouncementSearchIndex {
    static let table = "announcement_search"
    /// How much of a body's plain text is indexed (PostgreSQL refuses a `tsvector` of more than
    /// 1 MB; positions stop counting at 16,383).
    static let maxIndexedCharacters = 100_000

    /// Indexes an announcement, replacing what was indexed for it: its title, and its body's text
    /// followed by the names of its attachments (read here unless given).
    static func index(id: Int, title: String, body: String?, attachmentNames: [String]? = nil, on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        var names = attachmentNames ?? []
        if attachmentNames == nil { names = try await self.attachmentNames(of: [id], on: sql)[id, default: []] }
        try await store(Document(title: title, body: body, attachmentNames: names), id: id, on: sql)
    }

    /// Indexes announcement `id` again as it is stored, after its attachments changed.
    static func reindex(id: Int, on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase,
              let row = try await sql.select().columns("title", "body").from(AnnouncementModel.schema).where("id", .equal, id).first()
        else { return }
        try await index(
            id: id, title: try row.decode(column: "title", as: String.self), body: try row.decode(column: "body", as: String?.self), on: database)
    }

    /// The attachments' names of each of `ids`, in order.
    private static func attachmentNames(of ids: [Int], on sql: any SQLDatabase) async throws -> [Int: [String]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await sql.select().columns("announcement_id", "name").from(AttachmentModel.schema)
            .where("announcement_id", .in, ids).orderBy("announcement_id").orderBy("position").all()
        var names: [Int: [String]] = [:]
        for row in rows {
            names[try row.decode(column: "announcement_id", as: Int.self), default: []].append(try row.decode(column: "name", as: String.self))
        }
        return names
    }

    /// Writes what is indexed of announcement `id`, replacing what was.
    private static func store(_ document: Document, id: Int, on sql: any SQLDatabase) async throws {
        switch sql.dialect.name {
        case "sqlite":
            try await sql.raw("DELETE FROM \(ident: table) WHERE rowid = \(bind: id)").run()
            try await sql.raw("INSERT INTO \(ident: table) (rowid, title, body) VALUES (\(bind: id), \(bind: document.title), \(bind: document.body))").run()
        case "postgresql":
            try await sql.raw("""
                INSERT INTO \(ident: table) (announcement_id, document) VALUES (\(bind: id), CAST(\(bind: document.tsvector) AS tsvector))
                ON CONFLICT (announcement_id) DO UPDATE SET document = EXCLUDED.document
                """).run()
        default:
            return
        }
    }

    /// Removes an announcement from the index.
    static func remove(id: Int, on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        switch sql.dialect.name {
        case "sqlite": try await sql.raw("DELETE FROM \(ident: table) WHERE rowid = \(bind: id)").run()
        case "postgresql": try await sql.raw("DELETE FROM \(ident: table) WHERE announcement_id = \(bind: id)").run()
        default: return
        }
    }

    /// Indexes every announcement again from scratch, reading them `chunk` at a time. Run it
    /// in a transaction (as `intranet-server search-index rebuild` does), so that searches meanwhile
    /// see the old index, whole, until it commits. The next chunk's words are cut while the
    /// database writes the last one's.
    ///
    /// - Parameter withAttachments: whether to index attachments' names too (the migration that
    ///   made the index ran before attachments existed).
    /// - Returns: how many announcements were indexed.
    @discardableResult
    static func rebuild(on database: any Database, chunk: Int = 500, withAttachments: Bool = true) async throws -> Int {
        guard let sql = database as? any SQLDatabase else { return 0 }
        try await sql.raw("DELETE FROM \(ident: table)").run()
        struct Row: Decodable { let id: Int; let title: String; let body: String? }
        func read(after last: Int) async throws -> [Row] {
            try await sql.raw("SELECT id, title, body FROM announcements WHERE id > \(bind: last) ORDER BY id LIMIT \(bind: chunk)")
                .all(decoding: Row.self)
        }
        func documents(_ rows: [Row]) async throws -> Task<[(Int, Document)], Never> {
            let names = withAttachments ? try await attachmentNames(of: rows.map(\.id), on: sql) : [:]
            return Task.detached { rows.map { ($0.id, Document(title: $0.title, body: $0.body, attachmentNames: names[$0.id, default: []])) } }
        }
        var rows = try await read(after: 0)
        var pending = try await documents(rows)
        var count = 0
        while let last = rows.last {
            rows = try await read(after: last.id)
            let following = rows.isEmpty ? nil : try await documents(rows)
            let cut = await pending.value
            for (id, document) in cut {
                try await store(document, id: id, on: sql)
            }
            count += cut.count
            guard let following else { break }
            pending = following
        }
        return count
    }

    /// What is indexed of one announcement.
    struct Document: Sendable {
        /// The title's words, folded, separated by spaces.
        var title: String
        /// The body's words (of its plain text), folded, separated by spaces.
        var body: String

        /// The words of `title`, and of `body`'s text followed by `attachmentNames`.
        init(title: String, body: String?, attachmentNames: [String] = []) {
            self.title = SearchText.indexed(title)
            var text = body.map { HTMLText.plain($0, limit: AnnouncementSearchIndex.maxIndexedCharacters) } ?? ""
            text = String(text.prefix(AnnouncementSearchIndex.maxIndexedCharacters))
            if !attachmentNames.isEmpty { text += "\n" + attachmentNames.joined(separator: "\n") }
            self.body = SearchText.indexed(text)
        }

        /// The words as a `tsvector` literal: each word once, with its positions (the body's
        /// after a gap, so that no phrase runs from the title into the body) and weights.
        var tsvector: String {
            let titleWords = title.split(separator: " ")
            let bodyWords = body.split(separator: " ")
            var positions: [Substring: [String]] = [:]
            var order: [Substring] = []
            func add(_ words: [Substring], from first: Int, weight: String) {
                for (index, word) in words.enumerated() {
                    let position = min(first + index, 16_383)
                    if positions[word] == nil { order.append(word) }
                    positions[word, default: []].append("\(position)\(weight)")
                }
            }
            add(titleWords, from: 1, weight: "A")
            add(bodyWords, from: titleWords.count + 2, weight: "B")
            // Words hold only letters and digits: nothing to escape inside the quotes.
            return order.map { "'\($0)':" + positions[$0, default: []].prefix(256).joined(separator: ",") }.joined(separator: " ")
        }
    }
}
