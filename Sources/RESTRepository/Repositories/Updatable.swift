import Foundation
import HTTPTypes

/// A collection whose members can be replaced with `PUT`.
///
/// Every replacement of one member states its precondition: ``update(_:of:)`` with a member
/// read earlier, ``update(_:id:ifMatch:)`` with an entity tag, or the explicit
/// ``updateUnconditionally(_:id:)``.
public protocol Updatable: CollectionRepository {
    /// A member as the server answers a write.
    associatedtype Entity: Decodable & Sendable
    /// What the client sends as the member's new full content; the entity unless it differs.
    associatedtype Replacement: Encodable & Sendable = Entity
}

extension Updatable {
    /// Replaces one member if its entity tag still matches: `PUT {path}/{id}` with
    /// `If-Match`.
    ///
    /// - Parameters:
    ///   - replacement: the member's new full content.
    ///   - id: the member's id; it names the path, whatever the replacement holds.
    ///   - ifMatch: the entity tag the member must still have (`*`: any, as long as it exists).
    /// - Returns: the member as the server stored it.
    /// - Throws: a ``RepositoryError``; a stale tag gives ``CollectionRepository/conflict(_:id:)``
    ///   (a ``VersionConflict`` with the current member when this repository can read it).
    public func update(_ replacement: Replacement, id: ID, ifMatch: String) async throws -> Entity {
        try await replace(replacement, id: id, ifMatch: ifMatch).value
    }

    /// Replaces one member whatever it holds now: `PUT {path}/{id}` without `If-Match`. A
    /// change someone else made in between is overwritten.
    ///
    /// - Parameters:
    ///   - replacement: the member's new full content.
    ///   - id: the member's id.
    /// - Returns: the member as the server stored it.
    /// - Throws: a ``RepositoryError``.
    public func updateUnconditionally(_ replacement: Replacement, id: ID) async throws -> Entity {
        try await replace(replacement, id: id, ifMatch: nil).value
    }

    /// Replaces several members in one call: `PUT {path}` with a JSON array (no precondition
    /// can guard a whole collection).
    ///
    /// - Parameter replacements: the members' new content, each carrying its own id.
    /// - Returns: the members as the server stored them.
    /// - Throws: a ``RepositoryError``; an undecodable member names its index.
    public func update(_ replacements: [Replacement]) async throws -> [Entity] {
        let request = try client.request(.put, path: path, body: replacements)
        return try await client.list(request, as: Entity.self)
    }

    func replace(_ replacement: Replacement, id: ID, ifMatch: String?) async throws -> Versioned<Entity> {
        let request = try client.request(.put, path: path(for: id), body: replacement)
            .setting(.ifMatch, to: ifMatch)
        return try await reportingConflict(id: id) {
            try await client.versioned(request, as: Entity.self)
        }
    }
}

extension Updatable where Entity: Identifiable, Entity.ID == ID {
    /// Replaces a member read earlier, sending its `ETag` as `If-Match` so a change made by
    /// someone else in between is not overwritten.
    ///
    /// - Parameters:
    ///   - replacement: the member's new full content.
    ///   - current: the member as read, with its entity tag.
    /// - Returns: the stored member with its new entity tag.
    /// - Throws: ``RepositoryError/missingETag`` (nothing sent) when `current` has no entity
    ///   tag; a ``VersionConflict`` (or ``RepositoryError/preconditionFailed(_:)``) when the
    ///   member changed since `current` was read; another ``RepositoryError``.
    public func update(_ replacement: Replacement, of current: Versioned<Entity>) async throws -> Versioned<Entity> {
        try await replace(replacement, id: current.value.id, ifMatch: try requiredETag(of: current))
    }
}
