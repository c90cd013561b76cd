import HTTPTypes

/// A collection whose members can be deleted with `DELETE {path}/{id}`.
///
/// Every deletion states its precondition: ``delete(_:)`` with a member read earlier,
/// ``delete(id:ifMatch:)`` with an entity tag, or the explicit ``deleteUnconditionally(id:)``.
public protocol Deletable: CollectionRepository {}

extension Deletable {
    /// Deletes one member if its entity tag still matches: `DELETE {path}/{id}` with
    /// `If-Match`; any answer body is ignored.
    ///
    /// - Parameters:
    ///   - id: the member's id.
    ///   - ifMatch: the entity tag the member must still have (`*`: any, as long as it exists).
    /// - Throws: a ``RepositoryError``; ``RepositoryError/notFound(_:)`` for an unknown id; a
    ///   stale tag gives ``CollectionRepository/conflict(_:id:)``.
    public func delete(id: ID, ifMatch: String) async throws {
        try await remove(id: id, ifMatch: ifMatch)
    }

    /// Deletes one member whatever it holds now: `DELETE {path}/{id}` without `If-Match`.
    ///
    /// - Parameter id: the member's id.
    /// - Throws: a ``RepositoryError``; ``RepositoryError/notFound(_:)`` for an unknown id.
    public func deleteUnconditionally(id: ID) async throws {
        try await remove(id: id, ifMatch: nil)
    }

    private func remove(id: ID, ifMatch: String?) async throws {
        let request = RESTRequest(.delete, path: path(for: id)).setting(.ifMatch, to: ifMatch)
        try await reportingConflict(id: id) {
            try await client.perform(request)
        }
    }
}

extension Deletable where Self: Readable, Entity: Identifiable, Entity.ID == ID {
    /// Deletes a member read earlier, only if it has not changed since (`If-Match`).
    ///
    /// - Parameter current: the member as read, with its entity tag.
    /// - Throws: ``RepositoryError/missingETag`` (nothing sent) when `current` has no entity
    ///   tag; a ``VersionConflict`` when it changed; another ``RepositoryError``.
    public func delete(_ current: Versioned<Entity>) async throws {
        try await delete(id: current.value.id, ifMatch: try requiredETag(of: current))
    }
}
