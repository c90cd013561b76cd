import Foundation
import HTTPTypes

/// A collection whose members can be replaced with `PUT`.
public protocol Updatable: CollectionRepository {
    /// A member as the server answers a write.
    associatedtype Entity: Decodable & Sendable
    /// What the client sends as the member's new full content; the entity unless it differs.
    associatedtype Replacement: Encodable & Sendable = Entity
}

extension Updatable {
    /// Replaces one member: `PUT {path}/{id}` with the replacement as JSON.
    ///
    /// - Parameters:
    ///   - replacement: the member's new full content.
    ///   - id: the member's id; it names the path, whatever the replacement holds.
    ///   - ifMatch: an entity tag to send as `If-Match`, or `nil` for an unconditional write.
    /// - Returns: the member as the server stored it.
    /// - Throws: a ``RepositoryError``; a stale `ifMatch` gives
    ///   ``RepositoryError/preconditionFailed(_:current:)`` with the current version when this
    ///   repository can read it.
    public func update(_ replacement: Replacement, id: ID, ifMatch: String? = nil) async throws -> Entity {
        let request = try client.request(.put, path: path(for: id), json: replacement)
            .setting(.ifMatch, to: ifMatch)
        return try await attachingCurrentVersion(id: id) {
            try await client.value(request, as: Entity.self)
        }
    }

    /// Replaces several members in one call: `PUT {path}` with a JSON array.
    ///
    /// - Parameter replacements: the members' new content, each carrying its own id.
    /// - Returns: the members as the server stored them.
    /// - Throws: a ``RepositoryError``; an undecodable member names its index.
    public func update(_ replacements: [Replacement]) async throws -> [Entity] {
        let request = try client.request(.put, path: path, json: replacements)
        return try await client.list(request, as: Entity.self)
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
    /// - Throws: a ``RepositoryError``; ``RepositoryError/preconditionFailed(_:current:)``
    ///   when the member changed since `current` was read.
    public func update(_ replacement: Replacement, of current: Versioned<Entity>) async throws -> Versioned<Entity> {
        let id = current.value.id
        let request = try client.request(.put, path: path(for: id), json: replacement)
            .setting(.ifMatch, to: current.etag)
        return try await attachingCurrentVersion(id: id) {
            try await client.versioned(request, as: Entity.self)
        }
    }
}
