import FluentKit
import Foundation
import SQLKit

extension FluentAnnouncementRepository {
    /// Searches the live announcements `visibility` allows, through ``AnnouncementSearchIndex``:
    /// the same visibility filter as a list's, so nothing hidden is ranked, paged or counted.
    ///
    /// The order is the same on both databases: first those whose title holds every term as
    /// whole words, then those whose title holds them with the word being typed as a beginning,
    /// then those whose body (or title and body together) holds them as whole words, then the
    /// rest; newer first among equals, then the higher id.
    func search(_ query: SearchQuery, offset: Int, limit: Int, visibility: Visibility) async throws -> (items: [StoredAnnouncement], total: Int) {
        guard !query.terms.isEmpty, let sql = database as? any SQLDatabase else { return ([], 0) }
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
        let visible = try await Self.visibleQuery(visibility, listing: .live, at: now(), on: database)
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
        // bodies to sort and throw away. The rows are read through the same visibility filter,
        // so a post hidden between the two reads is left out rather than shown.
        let ids = try await found().sort(.sql(rank)).sort(\.$createdAt, .descending).sort(\.$id, .descending)
            .range(offset..<(offset + limit)).all(\.$id).compactMap { $0 }
        let models = Dictionary(
            try await visible().filter(\.$id ~~ ids).all().compactMap { model in model.id.map { ($0, model) } },
            uniquingKeysWith: { first, _ in first })
        return (try await Self.stored(ids.compactMap { models[$0] }, on: database), total)
    }
}
