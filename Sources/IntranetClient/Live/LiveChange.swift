import Foundation

/// One change the server reported on its live stream (`GET /events`): what changed, not its
/// content. Read the announcement or person again through the API (``IntranetClient/announcements``,
/// ``IntranetClient/people``) — its `etag` tells whether what you hold is already current.
public struct LiveChange: Sendable, Equatable {
    /// What happened, for this user.
    public enum Kind: String, Sendable, Equatable {
        /// An announcement is new to this user: created, published, or just shared with them.
        case announcementCreated = "announcement.created"
        /// An announcement this user may read changed.
        case announcementChanged = "announcement.changed"
        /// An announcement this user could read is gone for them: deleted, expired, withdrawn,
        /// or their access removed.
        case announcementDeleted = "announcement.deleted"
        /// A person of the directory changed (or was deleted: no ``LiveChange/etag`` then).
        case personChanged = "person.changed"
        /// Too much changed to tell (an import, or the stream could not resume where it left
        /// off): read everything again.
        case reset
    }

    /// What happened.
    public var kind: Kind
    /// The announcement's or person's id; `nil` for ``Kind/reset``.
    public var id: Int?
    /// The `ETag` a 2.0 detail read of it answers this user now; `nil` when it is gone.
    public var etag: String?
    /// The event's place in the server's change log (what a reconnection resumes after).
    public var eventID: String?

    /// Creates a change.
    public init(kind: Kind, id: Int?, etag: String? = nil, eventID: String? = nil) {
        self.kind = kind
        self.id = id
        self.etag = etag
        self.eventID = eventID
    }
}
