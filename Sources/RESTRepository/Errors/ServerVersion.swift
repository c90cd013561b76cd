/// The server's current version of a resource, fetched after a failed `If-Match` so the
/// caller can show what changed and retry on top of it.
public struct ServerVersion: Sendable {
    /// The current entity tag.
    public var etag: String?
    /// The current value, of the repository's entity type.
    public var value: any Sendable

    /// Creates a server version.
    public init(etag: String?, value: any Sendable) {
        self.etag = etag
        self.value = value
    }

    /// The current value as `type`, or `nil` when it is of another type.
    ///
    /// - Parameter type: the repository's entity type.
    public func value<Entity>(as type: Entity.Type = Entity.self) -> Entity? {
        value as? Entity
    }
}
