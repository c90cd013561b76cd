import FluentKit
import Foundation
import SQLKit

extension FluentAnnouncementRepository {
    /// Searches the live announcements `visibility` allows: the same visibility filter as a
    /// list's, so nothing hidden is ranked, paged or counted. In the index in memory
    /// (``AnnouncementSearchMemory``) when it is current, otherwise in the database's
    /// (``AnnouncementSearchIndex``); both give the same answer.
    ///
    /// The order: first those whose title holds every term as whole words, then those whose
    /// title holds them with the word being typed as a beginning, then those whose body (or title
    /// and body together) holds them as whole words, then the rest; newer first among equals,
    /// then the higher id.
    func search(_ query: SearchQuery, offset: Int, limit: Int, visibility: Visibility) async throws -> (items: [FoundAnnouncement], total: Int) {
        guard !query.terms.isEmpty else { return ([], 0) }
        if let searchMemory, let found = try await search(query, in: searchMemory, offset: offset, limit: limit, visibility: visibility) {
            return found
        }
        return try await searchDatabase(query, offset: offset, limit: limit, visibility: visibility)
    }

    /// The search in memory; `nil` when the snapshot is not current, or an announcement changed
    /// while it was searched (the database is searched then).
    private func search(
        _ query: SearchQuery, in memory: AnnouncementSearchMemory, offset: Int, limit: Int, visibility: Visibility
    ) async throws -> (items: [FoundAnnouncement], total: Int)? {
        guard let (snapshot, stamp) = memory.current(), let sql = database as? any SQLDatabase else { return nil }
        let resolved = try await Self.resolved(visibility, on: database)
        var phraseSlots: [[String]: SlotSet] = [:]
        for case .phrase(let words) in query.terms where phraseSlots[words] == nil {
            if let kept = memory.phrases.slots(of: words, stamp: stamp) {
                phraseSlots[words] = kept
                continue
            }
            let slots = snapshot.slots(of: try await Self.announcements(holding: words, on: sql))
            memory.phrases.keep(slots, of: words, stamp: stamp)
            phraseSlots[words] = slots
        }
        let now = now()
        let visible = memory.visibleSlots(for: resolved, in: snapshot, stamp: stamp, at: now)
        let (ids, total) = snapshot.search(query, phraseSlots: phraseSlots, visible: visible, offset: offset, limit: limit)
        // The page's rows by id alone, checked here by the same rule as the search (a filter
        // of thousands of granted ids in SQL cost more than the search itself); the bodies
        // kept as plain text are not read.
        let kept = ids.filter { id in snapshot.entry(of: id).map { memory.bodies.isKept(PlainBodies.Key($0)) } ?? false }
        guard let rows = try await Self.found(ids, keeping: Set(kept), bodies: memory.bodies, on: sql) else { return nil }
        let seconds = now.timeIntervalSince1970
        guard rows.count == ids.count, rows.allSatisfy({ $0.entry.isLive(at: seconds) && resolved.reaches(id: $0.entry.id, isRestricted: $0.entry.isRestricted) }),
            memory.confirm(stamp)
        else { return nil }
        return (rows.map(\.found), total)
    }

    /// Announcements `ids` as a search shows them, in the order of `ids` (those absent left
    /// out), each with what decides who may find it: read by SQL, as the index in memory is
    /// (FluentKit's reading of every column of every model was a sixth of a search's time).
    /// The bodies of `kept` are not read when `bodies` still holds them for the same revision
    /// and length (those it no longer holds are read after).
    ///
    /// - Returns: `nil` when an announcement changed between the two reads.
    private static func found(
        _ ids: [Int], keeping kept: Set<Int>, bodies: PlainBodies, on sql: any SQLDatabase
    ) async throws -> [(found: FoundAnnouncement, entry: AnnouncementSearchSnapshot.Entry)]? {
        guard !ids.isEmpty else { return [] }
        let table = SQLIdentifier(AnnouncementModel.schema)
        let columns = SQLList((AnnouncementSearchSnapshot.Entry.columns + ["title"]).map { SQLIdentifier($0) })
        // The byte length of a body, which neither database reads the body for.
        let length: SQLQueryString = "octet_length(\(ident: "body")) AS \(ident: "body_length")"
        let body: SQLQueryString =
            kept.isEmpty ? "\(ident: "body")" : "CASE WHEN \(ident: "id") IN (\(binds: Array(kept))) THEN NULL ELSE \(ident: "body") END AS \(ident: "body")"
        let rows = try await sql.raw("SELECT \(columns), \(length), \(body) FROM \(table) WHERE \(ident: "id") IN (\(binds: ids))").all()
        var byID: [Int: (found: FoundAnnouncement, entry: AnnouncementSearchSnapshot.Entry)] = [:]
        var unread: [Int: (title: String, entry: AnnouncementSearchSnapshot.Entry, length: Int)] = [:]
        for row in rows {
            let entry = try AnnouncementSearchSnapshot.Entry(row)
            let title = try row.decode(column: "title", as: String.self)
            let length = try row.decode(column: "body_length", as: Int?.self) ?? 0
            let key = PlainBodies.Key(entry)
            if let text = try row.decode(column: "body", as: String?.self) {
                byID[entry.id] = (FoundAnnouncement(id: entry.id, title: title, body: bodies.entry(key, body: text, length: length)), entry)
            } else if length == 0 {
                byID[entry.id] = (FoundAnnouncement(id: entry.id, title: title, body: PlainBodies.entry(of: nil)), entry)
            } else if let kept = bodies.kept(key, length: length) {
                byID[entry.id] = (FoundAnnouncement(id: entry.id, title: title, body: kept), entry)
            } else {
                unread[entry.id] = (title, entry, length)
            }
        }
        if !unread.isEmpty {
            // Gone from the cache since it was asked (or kept for another revision): read now,
            // and only if the announcement is still the one the first read saw.
            let more = try await sql.raw(
                "SELECT \(ident: "id"), \(ident: "revision"), \(length), \(ident: "body") FROM \(table) WHERE \(ident: "id") IN (\(binds: Array(unread.keys)))"
            ).all()
            for row in more {
                let id = try row.decode(column: "id", as: Int.self)
                let text = try row.decode(column: "body", as: String?.self)
                guard let first = unread.removeValue(forKey: id), try row.decode(column: "revision", as: Int.self) == first.entry.revision,
                    try row.decode(column: "body_length", as: Int?.self) ?? 0 == first.length
                else { return nil }
                let body = bodies.entry(PlainBodies.Key(first.entry), body: text, length: first.length)
                byID[id] = (FoundAnnouncement(id: id, title: first.title, body: body), first.entry)
            }
            guard unread.isEmpty else { return nil }
        }
        return ids.compactMap { byID[$0] }
    }

    /// The ids of the announcements whose title or body holds the folded `words` one right after
    /// the other, from the database's index (the index in memory holds no positions).
    private static func announcements(holding words: [String], on sql: any SQLDatabase) async throws -> Set<Int> {
        let phrase = SearchQuery(terms: [.phrase(words)])
        let query: SQLQueryString
        switch sql.dialect.name {
        case "sqlite":
            query = "SELECT rowid AS id FROM \(ident: AnnouncementSearchIndex.table) WHERE \(ident: AnnouncementSearchIndex.table) MATCH \(bind: phrase.fts5())"
        case "postgresql":
            query = "SELECT announcement_id AS id FROM \(ident: AnnouncementSearchIndex.table) WHERE document @@ CAST(\(bind: phrase.tsquery()) AS tsquery)"
        default:
            return []
        }
        return Set(try await sql.raw(query).all().map { try $0.decode(column: "id", as: Int.self) })
    }

    /// The search in the database's index.
    func searchDatabase(_ query: SearchQuery, offset: Int, limit: Int, visibility: Visibility) async throws -> (items: [FoundAnnouncement], total: Int) {
        guard let sql = database as? any SQLDatabase else { return ([], 0) }
        let matching: (SearchQuery, Bool) -> SQLQueryString
        switch sql.dialect.name {
        case "sqlite":
            matching = { query, titleOnly in
                let match = query.fts5(column: titleOnly ? "title" : nil)
                return "\(ident: "id") IN (SELECT rowid FROM \(ident: AnnouncementSearchIndex.table) WHERE \(ident: AnnouncementSearchIndex.table) MATCH \(bind: match))"
            }
        case "postgresql":
            matching = { query, titleOnly in
                let text = query.tsquery(weight: titleOnly ? "A" : "")
                return "\(ident: "id") IN (SELECT announcement_id FROM \(ident: AnnouncementSearchIndex.table) WHERE document @@ CAST(\(bind: text) AS tsquery))"
            }
        default:
            return ([], 0)
        }
        let now = now()
        let visible = try await Self.visibleQuery(visibility, listing: .live, at: now, on: database)
        let found = { visible().filter(.sql(matching(query, false))) }
        let total = try await found().count()
        guard total > offset, limit > 0 else { return ([], total) }
        var tiers: [SQLQueryString] = [matching(query.whole, true)]
        if query.hasPrefix { tiers.append(matching(query, true)) }
        tiers.append(matching(query.whole, false))
        var rank: SQLQueryString = "CASE"
        for (index, tier) in tiers.enumerated() {
            rank = "\(rank) WHEN \(tier) THEN \(literal: index)"
        }
        rank = "\(rank) ELSE \(literal: tiers.count) END"
        // The page's ids first, then their rows: ranking and paging read only the columns the
        // order needs (on SQLite, from AddSearchVisibilityIndex's index), never thousands of
        // bodies to sort and throw away.
        let ids = try await found().sort(.sql(rank)).sort(\.$createdAt, .descending).sort(\.$id, .descending)
            .range(offset..<(offset + limit)).all(\.$id).compactMap { $0 }
        return (try await announcements(ids, of: visible), total)
    }

    /// Announcements `ids` among those `visible` finds, in the order of `ids`: read through the
    /// same visibility filter as the search, so one hidden in between is left out rather than
    /// shown.
    private func announcements(
        _ ids: [Int], of visible: @Sendable () -> QueryBuilder<AnnouncementModel>
    ) async throws -> [FoundAnnouncement] {
        guard !ids.isEmpty else { return [] }
        let models = Dictionary(
            try await visible().filter(\.$id ~~ ids).all().compactMap { model in model.id.map { ($0, model) } },
            uniquingKeysWith: { first, _ in first })
        return try ids.compactMap { id in
            try models[id].map { model in
                let id = try model.requireID()
                let key = PlainBodies.Key(id: id, revision: model.revision, createdAt: model.createdAt.timeIntervalSince1970)
                return FoundAnnouncement(id: id, title: model.title, body: searchMemory?.bodies.entry(key, body: model.body) ?? PlainBodies.entry(of: model.body))
            }
        }
    }
}
