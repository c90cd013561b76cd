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
    static func attachmentNames(of ids: [Int], on sql: any SQLDatabase) async throws -> [Int: [String]] {
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
    static func store(_ document: Document, id: Int, on sql: any SQLDatabase) async throws {
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
            // A text of no more bytes than the limit has no more characters either: most bodies
            // are not walked character by character to find that out.
            if text.utf8.count > AnnouncementSearchIndex.maxIndexedCharacters {
                text = String(text.prefix(AnnouncementSearchIndex.maxIndexedCharacters))
            }
            if !attachmentNames.isEmpty { text += "\n" + attachmentNames.joined(separator: "\n") }
            self.body = SearchText.indexed(text)
        }

        /// The words as a `tsvector` literal: each word once, with its positions (the body's
        /// after a gap, so that no phrase runs from the title into the body; at most 256 a
        /// word, and none above 16,383, as PostgreSQL keeps them) and weights (`A` in the
        /// title, `B` in the body). The words are sorted by their bytes and grouped rather than
        /// looked up in a dictionary: rebuilding the index on PostgreSQL spent two thirds of
        /// its time hashing words here.
        var tsvector: String {
            var text: [UInt8] = []
            text.reserveCapacity(title.utf8.count + body.utf8.count + 1)
            text.append(contentsOf: title.utf8)
            let titleEnd = text.count
            text.append(0x20)
            text.append(contentsOf: body.utf8)
            struct Token {
                var start: Int
                var length: Int
                var position: Int
            }
            var tokens: [Token] = []
            func cut(_ range: Range<Int>, from first: Int) -> Int {
                var position = first
                var start = range.lowerBound
                for index in range.lowerBound...range.upperBound where index == range.upperBound || text[index] == 0x20 {
                    if index > start {
                        tokens.append(Token(start: start, length: index - start, position: min(position, 16_383)))
                        position += 1
                    }
                    start = index + 1
                }
                return position - first
            }
            let titleCount = cut(0..<titleEnd, from: 1)
            _ = cut((titleEnd + 1)..<text.count, from: titleCount + 2)
            var output: [UInt8] = []
            output.reserveCapacity(text.count * 2)
            text.withUnsafeBufferPointer { text in
                func order(_ a: Token, _ b: Token) -> Int {
                    for offset in 0..<min(a.length, b.length) where text[a.start + offset] != text[b.start + offset] {
                        return text[a.start + offset] < text[b.start + offset] ? -1 : 1
                    }
                    return a.length == b.length ? 0 : (a.length < b.length ? -1 : 1)
                }
                tokens.sort { a, b in
                    let words = order(a, b)
                    return words != 0 ? words < 0 : a.position < b.position
                }
                func append(_ number: Int) {
                    var divisor = 10_000
                    while divisor > 1, number < divisor { divisor /= 10 }
                    while divisor > 0 {
                        output.append(UInt8(48 + number / divisor % 10))
                        divisor /= 10
                    }
                }
                var index = 0
                while index < tokens.count {
                    let word = tokens[index]
                    var end = index + 1
                    while end < tokens.count, order(tokens[end], word) == 0 { end += 1 }
                    // Words hold only letters and digits: nothing to escape inside the quotes.
                    if !output.isEmpty { output.append(0x20) }
                    output.append(0x27)
                    output.append(contentsOf: text[word.start..<(word.start + word.length)])
                    output.append(contentsOf: [0x27, 0x3A])
                    for (number, token) in tokens[index..<min(end, index + 256)].enumerated() {
                        if number > 0 { output.append(0x2C) }
                        append(token.position)
                        output.append(token.position <= titleCount ? 0x41 : 0x42)
                    }
                    index = end
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }
}
