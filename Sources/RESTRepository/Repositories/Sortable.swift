import Foundation

/// A readable collection the server can sort: `GET {path}?sort={field}&order=asc|desc`.
///
/// The sortable fields are a type of the repository's own, so a misspelt field does not
/// compile:
///
/// ```swift
/// let newest = try await announcements.read(page: 1, pageSize: 20, sortedBy: .createdAt, order: .descending)
/// print(newest.info.total ?? 0)
/// ```
public protocol Sortable: Readable {
    /// The fields the server sorts by, as their query values.
    associatedtype SortField: RawRepresentable<String> & Sendable
}

extension Sortable {
    /// Reads one page in a chosen order.
    ///
    /// - Parameters:
    ///   - page: the 1-based page number.
    ///   - pageSize: the number of items per page.
    ///   - field: what to sort by.
    ///   - order: ascending (the default) or descending.
    /// - Returns: the items with the paging header fields, as ``Readable/read(page:pageSize:)``.
    /// - Throws: a ``RepositoryError``.
    public func read(
        page: Int, pageSize: Int, sortedBy field: SortField, order: ListOrder = .ascending
    ) async throws -> Page<ListItem> {
        try await read(page: page, pageSize: pageSize, extraQuery: sortQuery(field, order))
    }

    /// Every page of the list in a chosen order, fetched lazily.
    ///
    /// - Parameters:
    ///   - pageSize: the number of items per page.
    ///   - field: what to sort by.
    ///   - order: ascending (the default) or descending.
    public func pages(
        pageSize: Int, sortedBy field: SortField, order: ListOrder = .ascending
    ) -> PageSequence<ListItem> {
        let query = sortQuery(field, order)
        return PageSequence(pageSize: pageSize) { page, size in
            try await self.read(page: page, pageSize: size, extraQuery: query)
        }
    }

    /// Every item of the list in a chosen order, fetching one page at a time.
    ///
    /// - Parameters:
    ///   - pageSize: the number of items per page.
    ///   - field: what to sort by.
    ///   - order: ascending (the default) or descending.
    public func allItems(
        pageSize: Int, sortedBy field: SortField, order: ListOrder = .ascending
    ) -> ItemSequence<ListItem> {
        pages(pageSize: pageSize, sortedBy: field, order: order).items
    }

    private func sortQuery(_ field: SortField, _ order: ListOrder) -> [URLQueryItem] {
        [
            URLQueryItem(name: client.paging.sortParameter, value: field.rawValue),
            URLQueryItem(name: client.paging.orderParameter, value: order.rawValue),
        ]
    }
}
