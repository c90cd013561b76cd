import HTTPTypes

/// A singleton resource that can be replaced with `PUT`.
public protocol SingleUpdatable: Repository {
    /// The resource as the server answers a write.
    associatedtype Entity: Decodable & Sendable
    /// What the client sends as the new content; the entity unless it differs.
    associatedtype Replacement: Encodable & Sendable = Entity
}

extension SingleUpdatable {
    /// Replaces the resource if its entity tag still matches: `PUT {path}` with `If-Match`.
    ///
    /// - Parameters:
    ///   - replacement: the new content.
    ///   - ifMatch: the entity tag the resource must still have.
    /// - Throws: a ``RepositoryError``; ``RepositoryError/preconditionFailed(_:)`` for a stale tag.
    public func update(_ replacement: Replacement, ifMatch: String) async throws -> Entity {
        try await replace(replacement, ifMatch: ifMatch)
    }

    /// Replaces the resource whatever it holds now: `PUT {path}` without `If-Match`.
    ///
    /// - Parameter replacement: the new content.
    /// - Throws: a ``RepositoryError``.
    public func updateUnconditionally(_ replacement: Replacement) async throws -> Entity {
        try await replace(replacement, ifMatch: nil)
    }

    private func replace(_ replacement: Replacement, ifMatch: String?) async throws -> Entity {
        let request = try client.request(.put, path: path, body: replacement)
            .setting(.ifMatch, to: ifMatch)
        return try await client.value(request, as: Entity.self)
    }
}
