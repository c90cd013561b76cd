import HTTPTypes

/// A singleton resource that can be replaced with `PUT`.
public protocol SingleUpdatable: Repository {
    /// The resource as the server answers a write.
    associatedtype Entity: Decodable & Sendable
    /// What the client sends as the new content; the entity unless it differs.
    associatedtype Replacement: Encodable & Sendable = Entity
}

extension SingleUpdatable {
    /// Replaces the resource: `PUT {path}` with the replacement as JSON.
    ///
    /// - Parameters:
    ///   - replacement: the new content.
    ///   - ifMatch: an entity tag to send as `If-Match`, or `nil`.
    /// - Throws: a ``RepositoryError``.
    public func update(_ replacement: Replacement, ifMatch: String? = nil) async throws -> Entity {
        let request = try client.request(.put, path: path, json: replacement)
            .setting(.ifMatch, to: ifMatch)
        return try await client.value(request, as: Entity.self)
    }
}
