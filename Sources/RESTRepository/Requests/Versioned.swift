/// A value together with the entity tag the server sent with it.
///
/// Hand it back to an update or delete and the repository sends `If-Match` with the tag, so
/// the write fails with a ``VersionConflict`` instead of silently overwriting someone else's
/// change. The value's properties read through it (`versioned.title` is
/// `versioned.value.title`), except those named `value` or `etag`.
@dynamicMemberLookup
public struct Versioned<Value: Sendable>: Sendable {
    /// The value as the server sent it.
    public var value: Value
    /// The response's `ETag`, verbatim, or `nil` when the server sent none.
    public var etag: String?

    /// Where the value came from: the server, or a ``ResponseStore`` (and how old it is).
    public var origin: ResponseOrigin

    /// Creates a versioned value.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - etag: its entity tag, verbatim, or `nil`.
    ///   - origin: where it came from (the server, by default).
    public init(_ value: Value, etag: String?, origin: ResponseOrigin = .network) {
        self.value = value
        self.etag = etag
        self.origin = origin
    }

    /// A property of the value.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Value, Property>) -> Property {
        value[keyPath: keyPath]
    }
}

extension Versioned: Equatable where Value: Equatable {}
