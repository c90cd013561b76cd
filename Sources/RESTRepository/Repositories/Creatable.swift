import Foundation

/// A collection that accepts new members with `POST`, the server assigning their ids.
public protocol Creatable: Repository {
    /// What the client sends to create a member; usually a type without an id.
    associatedtype Draft: Encodable & Sendable
    /// What the server answers with: the created member, id included.
    associatedtype Entity: Decodable & Sendable
}

extension Creatable {
    /// Creates one member: `POST {path}` with the draft as JSON.
    ///
    /// - Parameter draft: the new member's content.
    /// - Returns: the created member as the server answered it.
    /// - Throws: a ``RepositoryError``, e.g. ``RepositoryError/unprocessable(_:fieldErrors:)``.
    public func create(_ draft: Draft) async throws -> Entity {
        try await createVersioned(draft).value
    }

    /// Creates one member and keeps the response's `ETag` for a later conditional write.
    ///
    /// - Parameter draft: the new member's content.
    /// - Throws: a ``RepositoryError``.
    public func createVersioned(_ draft: Draft) async throws -> Versioned<Entity> {
        let request = try client.request(.post, path: path, body: draft)
        return try await client.versioned(request, as: Entity.self)
    }

    /// Creates several members in one call: `POST {path}` with a JSON array of drafts.
    ///
    /// - Parameter drafts: the new members' content.
    /// - Returns: the created members, in the server's order.
    /// - Throws: a ``RepositoryError``; an undecodable member names its index.
    public func create(_ drafts: [Draft]) async throws -> [Entity] {
        let request = try client.request(.post, path: path, body: drafts)
        return try await client.list(request, as: Entity.self)
    }
}
