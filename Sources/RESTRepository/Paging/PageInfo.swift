/// What a paged response says about its place in the whole list.
///
/// Every member is `nil` (or empty) when the server did not send it.
public struct PageInfo: Sendable, Equatable {
    /// The 1-based page number.
    public var page: Int?
    /// The page size.
    public var pageSize: Int?
    /// The number of items in the whole list.
    public var total: Int?
    /// The `Link` header's links, in order.
    public var links: [Link]

    /// Creates page information.
    public init(page: Int? = nil, pageSize: Int? = nil, total: Int? = nil, links: [Link] = []) {
        self.page = page
        self.pageSize = pageSize
        self.total = total
        self.links = links
    }

    /// The target of the first link with relation `relation`, e.g. `next`.
    ///
    /// - Parameter relation: the relation type, matched without regard to case.
    public func link(_ relation: String) -> String? {
        let wanted = relation.lowercased()
        return links.first { $0.relations.contains(wanted) }?.target
    }

    /// The `first` link's target.
    public var first: String? { link("first") }
    /// The `prev` link's target (`previous` is accepted too).
    public var previous: String? { link("prev") ?? link("previous") }
    /// The `next` link's target.
    public var next: String? { link("next") }
    /// The `last` link's target.
    public var last: String? { link("last") }

    /// The number of pages, from `total` and `pageSize`, when both are known.
    public var pageCount: Int? {
        guard let total, let pageSize, pageSize > 0 else { return nil }
        return (total + pageSize - 1) / pageSize
    }
}
