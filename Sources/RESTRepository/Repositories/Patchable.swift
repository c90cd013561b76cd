import Foundation
import HTTPTypes

/// A collection whose members can be changed in part with `PATCH` and a JSON Merge Patch
/// (RFC 7396) body.
public protocol Patchable: CollectionRepository {
    /// A member as the server answers a write.
    associatedtype Entity: Decodable & Sendable
    /// The partial change; build it from ``PatchField`` members so absent and null differ.
    associatedtype Patch: Encodable & Sendable
}

extension Patchable {
    /// Changes part of a member: `PATCH {path}/{id}` with `Content-Type:
    /// application/merge-patch+json`.
    ///
    /// - Parameters:
    ///   - patch: the fields to set or clear; absent fields stay as they are.
    ///   - id: the member's id.
    ///   - ifMatch: an entity tag to send as `If-Match`, or `nil`.
    /// - Returns: the member as the server stored it.
    /// - Throws: a ``RepositoryError``.
    public func patch(_ patch: Patch, id: ID, ifMatch: String? = nil) async throws -> Entity {
        let request = try mergePatchRequest(patch, id: id).setting(.ifMatch, to: ifMatch)
        return try await attachingCurrentVersion(id: id) {
            try await client.value(request, as: Entity.self)
        }
    }

    private func mergePatchRequest(_ patch: Patch, id: ID) throws -> RESTRequest {
        try client.request(
            .patch, path: path(for: id), json: patch, contentType: "application/merge-patch+json")
    }
}

extension Patchable where Entity: Identifiable, Entity.ID == ID {
    /// Changes part of a member read earlier, sending its `ETag` as `If-Match`.
    ///
    /// - Parameters:
    ///   - patch: the fields to set or clear.
    ///   - current: the member as read, with its entity tag.
    /// - Returns: the stored member with its new entity tag.
    /// - Throws: a ``RepositoryError``; ``RepositoryError/preconditionFailed(_:current:)``
    ///   when the member changed since `current` was read.
    public func patch(_ patch: Patch, of current: Versioned<Entity>) async throws -> Versioned<Entity> {
        let id = current.value.id
        let request = try mergePatchRequest(patch, id: id).setting(.ifMatch, to: current.etag)
        return try await attachingCurrentVersion(id: id) {
            try await client.versioned(request, as: Entity.self)
        }
    }
}
