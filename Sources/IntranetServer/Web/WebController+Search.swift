import Foundation
import Hummingbird
import IntranetAPI
import IntranetHTML

extension WebController {
    /// `GET /search?q=` for a browser: both groups of ``SearchController`` with their
    /// snippets, the matched words marked; pages of ten.
    @Sendable func searchPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let fields = WebForm.parse(request.uri.query ?? "")
        // Cut at the API's limit, which counts Unicode code points (not characters).
        let text = String(String.UnicodeScalarView(WebForm.withoutControlCharacters(fields["q"] ?? "").unicodeScalars.prefix(SearchQuery.maxLength)))
        guard let number = Int(fields["page"] ?? "1"), number >= 1, number <= 10_000 else {
            throw APIError.notFound("There is no such page of results.")
        }
        let view = try await cache.view(for: identity.user)
        let query = text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try? SearchQuery.parse(text)
        let searched = query.map { SearchController.Request(text: text, query: $0).searched } ?? ""
        // The exact text too: the page shows it back in the form.
        let key = "web|search|\(view.key)|\(number)|\(searched)|\(text)"
        return try await page(key, reads: [.announcements, .people], view: view, identity: identity, request: request) {
            var page: [String: Any] = ["query": text]
            guard let query else {
                return PageFragment(title: "Search", main: templates.renderMain("search", page))
            }
            let size = 10
            let asked = SearchController.Request(text: text, query: query, offset: (number - 1) * size, limit: size)
            let results = try await search.results(asked, visibility: view.visibility)
            let people = results.people ?? SearchGroup(total: 0, items: [])
            let announcements = results.announcements ?? SearchGroup(total: 0, items: [])
            page["searched"] = true
            page["people"] = people.items.map { ["id": $0.id, "name": $0.name, "snippet": Self.markedHTML($0.snippet)] }
            page["announcements"] = announcements.items.map { ["id": $0.id, "title": $0.title, "snippet": Self.markedHTML($0.snippet)] }
            page["peopleTotal"] = people.total
            page["announcementsTotal"] = announcements.total
            page["hasPeople"] = !people.items.isEmpty
            page["hasAnnouncements"] = !announcements.items.isEmpty
            let pages = max(1, (max(people.total, announcements.total) + size - 1) / size)
            if pages > 1 {
                var paging: [String: Any] = ["page": number, "pages": pages]
                if number > 1 { paging["previous"] = Self.searchLink(text, page: number - 1) }
                if number < pages { paging["next"] = Self.searchLink(text, page: number + 1) }
                page["paging"] = paging
            }
            return PageFragment(title: "Search: “\(text)”", main: templates.renderMain("search", page))
        }
    }

    /// A snippet as HTML: its text escaped, the matched words in `<mark>`.
    static func markedHTML(_ snippet: SearchSnippet) -> String {
        let scalars = Array(snippet.text.unicodeScalars)
        func text(_ range: Range<Int>) -> String {
            HTMLSanitizer.escape(String(String.UnicodeScalarView(scalars[range])))
        }
        var html = ""
        var position = 0
        for match in snippet.matches where match.count == 2 && match[0] >= position && match[1] > 0 && match[0] + match[1] <= scalars.count {
            html += text(position..<match[0]) + "<mark>" + text(match[0]..<(match[0] + match[1])) + "</mark>"
            position = match[0] + match[1]
        }
        return html + text(position..<scalars.count)
    }

    private static func searchLink(_ text: String, page: Int) -> String {
        var components = URLComponents()
        components.path = "/search"
        components.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "page", value: String(page))]
        return components.string ?? "/search"
    }
}
