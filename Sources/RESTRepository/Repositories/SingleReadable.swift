import HTTPTypes

/// A singleton resource that can be read, e.g. `/users/me`.
public protocol SingleReadable: Repository {
    /// The resource as the server answers it.
    associatedtype Entity: Decodable & Sendable
}

extension SingleReadable {
    /// Reads the resource: `GET {path}`.
    ///
    /// - Throws: a ``RepositoryError``.
    public func read() async throws -> Entity {
        try await readVersioned().value
    }

    /// Reads the resource and keeps its `ETag`.
    ///
    /// - Throws: a ``RepositoryError``.
    public func readVersioned() async throws -> Versioned<Entity> {
        try await client.versioned(RESTRequest(.get, path: path), as: Entity.self)
    }
}
