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

    /// Creates a page.
    public init(items: [Item], number: Int, size: Int, info: PageInfo) {
        self.items = items
        self.number = number
        self.size = size
        self.info = info
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
