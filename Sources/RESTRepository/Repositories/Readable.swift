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

    /// Reads the list as the server answers `GET {path}` without paging parameters (many
    /// servers then send only their default first page; see ``pages(pageSize:)``).
    ///
    /// - Throws: a ``RepositoryError``; an undecodable item names its index.
    public func readAll() async throws -> [ListItem] {
        try await client.list(RESTRequest(.get, path: path), as: ListItem.self)
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
        let paging = client.paging
        let request = RESTRequest(.get, path: path, query: [
            URLQueryItem(name: paging.pageParameter, value: String(page)),
            URLQueryItem(name: paging.pageSizeParameter, value: String(pageSize)),
        ])
        let response = try await client.send(request)
        let items = try response.decodeList(ListItem.self, using: client.makeDecoder())
        return Page(
            items: items, number: page, size: pageSize,
            info: paging.pageInfo(from: response.headerFields))
    }

    /// Every page of the list, fetched lazily as the sequence is iterated.
    ///
    /// - Parameter pageSize: the number of items per page.
    public func pages(pageSize: Int) -> PageSequence<ListItem> {
        PageSequence(pageSize: pageSize) { page, size in
            try await self.read(page: page, pageSize: size)
        }
    }

    /// Every item of the list, fetching one page at a time.
    ///
    /// - Parameter pageSize: the number of items per page.
    public func allItems(pageSize: Int) -> ItemSequence<ListItem> {
        pages(pageSize: pageSize).items
    }

    /// Reads the member again, so a failed conditional write can show what the server holds.
    public func currentVersion(id: ID) async -> ServerVersion? {
        guard let current = try? await readVersioned(id: id) else { return nil }
        return ServerVersion(etag: current.etag, value: current.value)
    }
}
