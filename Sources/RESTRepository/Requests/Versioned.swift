/// A value together with the entity tag the server sent with it.
///
/// Hand it back to an update or delete and the repository sends `If-Match` with the tag, so
/// the write fails with ``RepositoryError/preconditionFailed(_:current:)`` instead of silently
/// overwriting someone else's change.
public struct Versioned<Value: Sendable>: Sendable {
    /// The value as the server sent it.
    public var value: Value
    /// The response's `ETag`, verbatim, or `nil` when the server sent none.
    public var etag: String?

    /// Creates a versioned value.
    public init(_ value: Value, etag: String?) {
        self.value = value
        self.etag = etag
    }
}

extension Versioned: Equatable where Value: Equatable {}
