/// An asynchronous sequence of every item of a paged list, fetching pages as it goes.
public struct ItemSequence<Item: Sendable>: AsyncSequence, Sendable {
    /// The sequence's element: one item.
    public typealias Element = Item

    private let pages: PageSequence<Item>

    /// Creates a sequence over the items of `pages`.
    public init(pages: PageSequence<Item>) {
        self.pages = pages
    }

    /// Makes an iterator that starts at the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator())
    }

    /// Hands out the buffered page's items, fetching the next page when they run out.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: PageSequence<Item>.Iterator
        var buffer: [Item] = []
        var position = 0

        /// The next item, or `nil` after the last item of the last page.
        ///
        /// - Throws: whatever fetching a page threw.
        public mutating func next() async throws -> Item? {
            while position >= buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = page.items
                position = 0
            }
            defer { position += 1 }
            return buffer[position]
        }
    }
}
