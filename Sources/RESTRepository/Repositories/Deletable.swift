import HTTPTypes

/// A collection whose members can be deleted with `DELETE {path}/{id}`.
public protocol Deletable: CollectionRepository {}

extension Deletable {
    /// Deletes one member: `DELETE {path}/{id}`; any answer body is ignored.
    ///
    /// - Parameters:
    ///   - id: the member's id.
    ///   - ifMatch: an entity tag to send as `If-Match`, or `nil`.
    /// - Throws: a ``RepositoryError``; ``RepositoryError/notFound(_:)`` for an unknown id.
    public func delete(id: ID, ifMatch: String? = nil) async throws {
        let request = RESTRequest(.delete, path: path(for: id)).setting(.ifMatch, to: ifMatch)
        try await attachingCurrentVersion(id: id) {
            try await client.perform(request)
        }
    }
}

extension Deletable where Self: Readable, Entity: Identifiable, Entity.ID == ID {
    /// Deletes a member read earlier, only if it has not changed since (`If-Match`).
    ///
    /// - Parameter current: the member as read, with its entity tag.
    /// - Throws: a ``RepositoryError``; ``RepositoryError/preconditionFailed(_:current:)``
    ///   when it changed.
    public func delete(_ current: Versioned<Entity>) async throws {
        try await delete(id: current.value.id, ifMatch: current.etag)
    }
}
