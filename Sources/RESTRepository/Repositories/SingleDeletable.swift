import HTTPTypes

/// A singleton resource that can be deleted.
public protocol SingleDeletable: Repository {}

extension SingleDeletable {
    /// Deletes the resource: `DELETE {path}`; any answer body is ignored.
    ///
    /// - Throws: a ``RepositoryError``.
    public func delete() async throws {
        try await client.perform(RESTRequest(.delete, path: path))
    }
}
