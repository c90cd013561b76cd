/// An asynchronous sequence of every page of a list, fetched one at a time as it is iterated.
///
/// Iteration stops after the page whose ``Page/hasNext`` is false, or at the first empty
/// page; an error ends it by throwing. Use ``items`` to walk every item instead.
public struct PageSequence<Item: Sendable>: AsyncSequence, Sendable {
    /// The sequence's element: one page.
    public typealias Element = Page<Item>

    private let pageSize: Int
    private let firstPage: Int
    private let fetch: @Sendable (_ page: Int, _ pageSize: Int) async throws -> Page<Item>

    /// Creates a sequence.
    ///
    /// - Parameters:
    ///   - pageSize: items per page.
    ///   - firstPage: the page to start from (1 by default).
    ///   - fetch: fetches one page, e.g. a repository's `read(page:pageSize:)`.
    public init(
        pageSize: Int,
        firstPage: Int = 1,
        fetch: @escaping @Sendable (_ page: Int, _ pageSize: Int) async throws -> Page<Item>
    ) {
        self.pageSize = pageSize
        self.firstPage = firstPage
        self.fetch = fetch
    }

    /// Every item of every page, in order.
    public var items: ItemSequence<Item> {
        ItemSequence(pages: self)
    }

    /// Makes an iterator that starts at the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(nextPage: firstPage, pageSize: pageSize, fetch: fetch)
    }

    /// Fetches pages in order until the last one.
    public struct Iterator: AsyncIteratorProtocol {
        var nextPage: Int?
        let pageSize: Int
        let fetch: @Sendable (Int, Int) async throws -> Page<Item>

        /// The next page, or `nil` after the last one.
        ///
        /// - Throws: whatever fetching the page threw (a ``RepositoryError`` from repositories).
        public mutating func next() async throws -> Page<Item>? {
            guard let number = nextPage else { return nil }
            nextPage = nil
            let page = try await fetch(number, pageSize)
            if page.items.isEmpty {
                return nil
            }
            if page.hasNext {
                nextPage = number + 1
            }
            return page
        }
    }
}
