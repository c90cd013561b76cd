import Foundation
import HTTPTypes

/// A collection whose members can be changed in part with `PATCH` and a JSON Merge Patch
/// (RFC 7396) body.
///
/// Every patch of one member states its precondition: ``patch(_:of:)`` with a member read
/// earlier, ``patch(_:id:ifMatch:)`` with an entity tag, or the explicit
/// ``patchUnconditionally(_:id:)``.
public protocol Patchable: CollectionRepository {
    /// A member as the server answers a write.
    associatedtype Entity: Decodable & Sendable
    /// The partial change; build it from ``PatchField`` members so absent and null differ.
    associatedtype Patch: Encodable & Sendable
}

extension Patchable {
    /// Changes part of a member if its entity tag still matches: `PATCH {path}/{id}` with
    /// `Content-Type: application/merge-patch+json` and `If-Match`.
    ///
    /// - Parameters:
    ///   - patch: the fields to set or clear; absent fields stay as they are.
    ///   - id: the member's id.
    ///   - ifMatch: the entity tag the member must still have (`*`: any, as long as it exists).
    /// - Returns: the member as the server stored it.
    /// - Throws: a ``RepositoryError``; a stale tag gives ``CollectionRepository/conflict(_:id:)``.
    public func patch(_ patch: Patch, id: ID, ifMatch: String) async throws -> Entity {
        try await sendPatch(patch, id: id, ifMatch: ifMatch).value
    }

    /// Changes part of a member whatever it holds now: `PATCH {path}/{id}` without `If-Match`.
    ///
    /// - Parameters:
    ///   - patch: the fields to set or clear; absent fields stay as they are.
    ///   - id: the member's id.
    /// - Returns: the member as the server stored it.
    /// - Throws: a ``RepositoryError``.
    public func patchUnconditionally(_ patch: Patch, id: ID) async throws -> Entity {
        try await sendPatch(patch, id: id, ifMatch: nil).value
    }

    func sendPatch(_ patch: Patch, id: ID, ifMatch: String?) async throws -> Versioned<Entity> {
        let request = try client.request(
            .patch, path: path(for: id), body: patch, contentType: client.coder.patchMediaType
        ).setting(.ifMatch, to: ifMatch)
        return try await reportingConflict(id: id) {
            try await client.versioned(request, as: Entity.self)
        }
    }
}

extension Patchable where Entity: Identifiable, Entity.ID == ID {
    /// Changes part of a member read earlier, sending its `ETag` as `If-Match`.
    ///
    /// - Parameters:
    ///   - patch: the fields to set or clear.
    ///   - current: the member as read, with its entity tag.
    /// - Returns: the stored member with its new entity tag.
    /// - Throws: ``RepositoryError/missingETag`` (nothing sent) when `current` has no entity
    ///   tag; a ``VersionConflict`` (or ``RepositoryError/preconditionFailed(_:)``) when the
    ///   member changed since `current` was read; another ``RepositoryError``.
    public func patch(_ patch: Patch, of current: Versioned<Entity>) async throws -> Versioned<Entity> {
        try await sendPatch(patch, id: current.value.id, ifMatch: try requiredETag(of: current))
    }
}
