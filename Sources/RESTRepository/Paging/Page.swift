/// One page of a list: its items and what the response said about paging.
public struct Page<Item: Sendable>: Sendable {
    /// The page's items, in the server's order.
    public var items: [Item]
    /// The page number this page was asked for (1-based).
    public var number: Int
    /// The page size asked for.
    public var size: Int
    /// The paging header fields of the response.
    public var info: PageInfo

    /// Where the page came from: the server, or a ``ResponseStore`` (and how old it is).
    public var origin: ResponseOrigin

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: the items.
    ///   - number: the 1-based page number.
    ///   - size: the page size asked for.
    ///   - info: the paging header fields.
    ///   - origin: where it came from (the server, by default).
    public init(items: [Item], number: Int, size: Int, info: PageInfo, origin: ResponseOrigin = .network) {
        self.items = items
        self.number = number
        self.size = size
        self.info = info
        self.origin = origin
    }

    /// Whether a page follows this one.
    ///
    /// A `Link` header decides when present (a `next` link); otherwise `X-Total` does; with
    /// neither, a full page suggests more.
    public var hasNext: Bool {
        if !info.links.isEmpty {
            return info.next != nil
        }
        if let total = info.total {
            return number * size < total
        }
        return !items.isEmpty && items.count >= size
    }
}

extension Page: Equatable where Item: Equatable {}
