import Foundation

/// The paging headers of a list answer: `X-Total`, `X-Page`, `X-Per-Page` and an RFC 8288 `Link`
/// with `first`, `prev`, `next` and `last`, each a relative reference that keeps every other
/// query parameter of the request.
struct PageLinks: Sendable, Equatable {
    var total: Int
    var page: Int
    var perPage: Int
    var link: String

    init(query: ListQuery, path: String, total: Int) {
        let limit = query.request.limit
        let offset = query.request.offset
        let lastOffset = total == 0 ? 0 : ((total - 1) / limit) * limit
        self.total = total
        self.page = query.page
        self.perPage = limit
        var relations: [(String, Int)] = [("first", 0)]
        if offset > 0 {
            relations.append(("prev", max(0, offset - limit)))
        }
        if offset + limit < total {
            relations.append(("next", offset + limit))
        }
        relations.append(("last", lastOffset))
        self.link = relations
            .map { relation, target in
                "<\(Self.reference(path: path, query: query, offset: target))>; rel=\"\(relation)\""
            }
            .joined(separator: ", ")
    }

    private static let pagingNames: Set<String> = ["max", "offset", "page", "per_page"]

    private static func reference(path: String, query: ListQuery, offset: Int) -> String {
        let limit = query.request.limit
        var pairs = query.rawParameters
            .filter { !pagingNames.contains($0.name.removingPercentEncoding ?? $0.name) }
            .map { "\($0.name)=\($0.value)" }
        switch query.style {
        case .offset:
            pairs += ["max=\(limit)", "offset=\(offset)"]
        case .page:
            pairs += ["page=\(offset / limit + 1)", "per_page=\(limit)"]
        }
        return path + "?" + pairs.joined(separator: "&")
    }
}
