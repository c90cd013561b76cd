import Foundation

/// A collection whose members can be listed and read by id.
public protocol Readable: CollectionRepository {
    /// A member as `GET {path}/{id}` answers it.
    associatedtype Entity: Decodable & Sendable
    /// A member as lists carry it; the entity itself unless the list is slimmer.
    associatedtype ListItem: Decodable & Sendable = Entity
}

extension Readable {
    /// Reads one member: `GET {path}/{id}`.
    ///
    /// - Parameter id: the member's id.
    /// - Throws: a ``RepositoryError``, e.g. ``RepositoryError/notFound(_:)``.
    public func read(id: ID) async throws -> Entity {
        try await readVersioned(id: id).value
    }

    /// Reads one member and keeps the response's `ETag`, for ``Updatable/update(_:of:)`` and
    /// friends.
    ///
    /// - Parameter id: the member's id.
    /// - Throws: a ``RepositoryError``.
    public func readVersioned(id: ID) async throws -> Versioned<Entity> {
        try await client.versioned(RESTRequest(.get, path: path(for: id)), as: Entity.self)
    }

    /// Reads one page: `GET {path}?page={page}&per_page={pageSize}` (names from the client's
    /// ``PagingConvention``).
    ///
    /// - Parameters:
    ///   - page: the 1-based page number.
    ///   - pageSize: the number of items per page.
    /// - Returns: the items with the paging header fields (`nil` where absent).
    /// - Throws: a ``RepositoryError``.
    public func read(page: Int, pageSize: Int) async throws -> Page<ListItem> {
        try await read(page: page, pageSize: pageSize, extraQuery: [])
    }

    /// Reads one page with more query parameters (a sort order, a search, a filter) after the
    /// paging ones; what ``read(page:pageSize:)`` and ``Sortable`` build on, and what a
    /// repository's own list calls use.
    ///
    /// - Parameters:
    ///   - page: the 1-based page number.
    ///   - pageSize: the number of items per page.
    ///   - extraQuery: the parameters to add, in order.
    /// - Returns: the items with the paging header fields, as ``read(page:pageSize:)``.
    /// - Throws: a ``RepositoryError``.
    public func read(page: Int, pageSize: Int, extraQuery: [URLQueryItem]) async throws -> Page<ListItem> {
        try await read(page: page, pageSize: pageSize, extraQuery: extraQuery, as: ListItem.self) { $0 }
    }

    /// Reads one page into any item type, after `narrowing` the request (property selection).
    func read<Item: Decodable & Sendable>(
        page: Int, pageSize: Int, extraQuery: [URLQueryItem], as type: Item.Type,
        narrowing: (RESTRequest) -> RESTRequest
    ) async throws -> Page<Item> {
        let paging = client.paging
        let request = narrowing(RESTRequest(.get, path: path, query: [
            URLQueryItem(name: paging.pageParameter, value: String(page)),
            URLQueryItem(name: paging.pageSizeParameter, value: String(pageSize)),
        ] + extraQuery))
        let response = try await client.send(request)
        let items = try response.decodeList(Item.self, using: client.coder)
        return Page(
            items: items, number: page, size: pageSize,
            info: paging.pageInfo(from: response.headerFields), origin: response.origin)
    }

    /// Every page of the list, fetched lazily as the sequence is iterated. (There is no bare
    /// "read the list": a server that pages would silently answer only its first page.)
    ///
    /// - Parameter pageSize: the number of items per page.
    public func pages(pageSize: Int) -> PageSequence<ListItem> {
        PageSequence(pageSize: pageSize) { page, size in
            try await self.read(page: page, pageSize: size)
        }
    }

    /// Every page of the list with `extraQuery` added to each request (a filter the API
    /// defines), fetched one at a time as the sequence is iterated.
    ///
    /// - Parameters:
    ///   - pageSize: the number of items per page.
    ///   - extraQuery: query items sent with every page.
    public func pages(pageSize: Int, extraQuery: [URLQueryItem]) -> PageSequence<ListItem> {
        PageSequence(pageSize: pageSize) { page, size in
            try await self.read(page: page, pageSize: size, extraQuery: extraQuery)
        }
    }

    /// Every item of the list, fetching one page at a time.
    ///
    /// - Parameter pageSize: the number of items per page.
    public func allItems(pageSize: Int) -> ItemSequence<ListItem> {
        pages(pageSize: pageSize).items
    }

    /// Reads the member again after a 412, so the ``VersionConflict`` carries what the server
    /// holds now (`current` is `nil` when that read fails too).
    ///
    /// - Parameters:
    ///   - response: the 412 response.
    ///   - id: the member written.
    public func conflict(_ response: ResponseDetails, id: ID) async -> any Error {
        VersionConflict(response: response, current: try? await readVersioned(id: id))
    }
}
