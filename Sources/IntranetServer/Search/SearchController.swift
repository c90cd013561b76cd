import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import IntranetHTML

/// Serves `GET /search?q=`: one ranked answer over people and announcements
/// (``SearchResults``), in JSON or Spearal, under every API version.
///
/// Announcements are searched among those the caller may read now (the same filter as their
/// list, applied before ranking, paging and counting); people by anyone, as the directory is.
/// Answers are kept in the response cache like lists, per view, until a write to either.
struct SearchController: Sendable {
    let announcements: any AnnouncementRepository
    let people: PeopleFinder
    let cache: ResponseCache

    /// The most results per group and page.
    static let maxPerPage = 50
    /// Results per group and page unless `per_page` says.
    static let defaultPerPage = 10

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, "/search", search)
    }

    /// What a request asks for.
    struct Request: Sendable {
        enum Groups: String, Sendable { case both, people, announcements }
        var text: String
        var query: SearchQuery
        var groups = Groups.both
        var offset = 0
        var limit = SearchController.defaultPerPage

        /// Reads `q`, `only`, `page` and `per_page` from a raw query string.
        ///
        /// - Throws: ``APIError`` 400 naming what is wrong.
        init(rawQuery: String) throws {
            var values: [String: String] = [:]
            for pair in rawQuery.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = ListQuery.decode(parts[0])
                guard ["q", "only", "page", "per_page"].contains(name) else { continue }
                guard values[name] == nil else { throw APIError.badRequest("Query parameter '\(name)' is given more than once.") }
                values[name] = parts.count > 1 ? ListQuery.decode(parts[1]) : ""
            }
            query = try SearchQuery.parse(values["q"])
            text = values["q"] ?? ""
            if let only = values["only"] {
                guard let groups = Groups(rawValue: only), groups != .both else {
                    throw APIError.badRequest("Query parameter 'only' must be people or announcements.")
                }
                self.groups = groups
            }
            limit = try Self.number(values["per_page"], named: "per_page", in: 1...SearchController.maxPerPage) ?? limit
            let page = try Self.number(values["page"], named: "page", in: 1...10_000) ?? 1
            offset = (page - 1) * limit
        }

        /// What is searched for, not how it was typed, for cache keys: "Zoe" and " zoe" share
        /// an answer.
        var searched: String { "\(query.terms)|\(PeopleFinder.needles(text))" }

        /// A request for `query` (read from `text`).
        init(text: String, query: SearchQuery, groups: Groups = .both, offset: Int = 0, limit: Int = SearchController.defaultPerPage) {
            self.text = text
            self.query = query
            self.groups = groups
            self.offset = offset
            self.limit = limit
        }

        private static func number(_ text: String?, named name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw APIError.badRequest("Query parameter '\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
            }
            return value
        }
    }

    @Sendable func search(_ request: Hummingbird.Request, context: AppRequestContext) async throws -> Response {
        let asked = try Request(rawQuery: request.uri.query ?? "")
        let representation = Representation(format: context.wireFormat, version: context.apiVersion)
        let view = try await cache.view(for: context.user)
        let visibility = view.visibility
        let key = "search|\(representation.cacheKey)|\(view.key)|\(asked.groups.rawValue)|\(asked.offset)|\(asked.limit)|\(asked.searched)"
        let entry = try await cache.answer(for: key, dependsOn: [.announcements, .people], keyedBy: view) {
            let results = try await results(asked, visibility: visibility)
            let body = representation.format == .json ? SearchResultsJSON.encode(results) : try representation.encode(results)
            let etag = EntityTag.forContent(body.readableBytesView, suffix: representation.tagSuffix)
            return CachedResponse(body: body, etag: etag, headers: [
                .contentType: representation.contentType, .eTag: etag, .apiVersion: representation.version.rawValue,
                .vary: VersionMiddleware.vary,
                .cacheControl: visibility == .unrestricted ? "public, no-cache" : "private, no-cache",
            ])
        }
        return entry.response(for: request)
    }

    /// The groups asked for.
    func results(_ asked: Request, visibility: Visibility) async throws -> SearchResults {
        var results = SearchResults(people: nil, announcements: nil)
        if asked.groups != .announcements {
            results.people = try await people.search(asked.text, query: asked.query, offset: asked.offset, limit: asked.limit)
        }
        if asked.groups != .people {
            let (items, total) = try await announcements.search(asked.query, offset: asked.offset, limit: asked.limit, visibility: visibility)
            results.announcements = SearchGroup(total: total, items: items.map { Self.hit($0, for: asked.query) })
        }
        return results
    }

    /// An announcement as a result: its snippet from the body where the query's words are,
    /// or else its title.
    static func hit(_ announcement: FoundAnnouncement, for query: SearchQuery) -> AnnouncementHit {
        let body = announcement.body
        let snippet = SnippetMaker.snippet(of: body.text, words: body.words, for: query)
            ?? SnippetMaker.snippet(of: announcement.title, for: query)
            ?? SearchSnippet(text: String(body.text.prefix(SnippetMaker.length)), matches: [])
        return AnnouncementHit(id: announcement.id, title: announcement.title, snippet: snippet)
    }
}
