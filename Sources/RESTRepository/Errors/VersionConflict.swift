/// A conditional write lost a race: the server answered 412 because the member changed since
/// it was read. Thrown by the writes of a repository that can read its members, with the
/// member as the server holds it now, typed:
///
/// ```swift
/// do {
///     _ = try await announcements.patch(AnnouncementPatch(title: "New"), of: read)
/// } catch let conflict as VersionConflict<Announcement> {
///     show(conflict.current?.title)            // what it says now
///     // …or retry on top of it: patch(…, of: conflict.current!)
/// }
/// ```
///
/// A repository that cannot read (or a custom endpoint) throws
/// ``RepositoryError/preconditionFailed(_:)`` instead; ``repositoryError`` gives that form here.
public struct VersionConflict<Entity: Sendable>: Error, Sendable {
    /// The 412 response.
    public var response: ResponseDetails
    /// The member as the server holds it now, with its new entity tag; `nil` when it could not
    /// be read again (deleted meanwhile, or the read failed).
    public var current: Versioned<Entity>?

    /// Creates a conflict.
    ///
    /// - Parameters:
    ///   - response: the 412 response.
    ///   - current: the member as read again after the 412.
    public init(response: ResponseDetails, current: Versioned<Entity>?) {
        self.response = response
        self.current = current
    }

    /// The same failure as the untyped ``RepositoryError/preconditionFailed(_:)``, for code that
    /// handles every ``RepositoryError`` in one place.
    public var repositoryError: RepositoryError {
        .preconditionFailed(response)
    }

    /// A short sentence for people.
    public var userMessage: String {
        repositoryError.userMessage
    }
}

extension VersionConflict: CustomStringConvertible {
    /// The status and whether the current version is known.
    public var description: String {
        "VersionConflict 412: \(current == nil ? "the current version could not be read" : "current ETag \(current?.etag ?? "none")")"
    }
}
