/// Everything an announcements screen shows, at one moment.
public struct FeedSnapshot: Sendable, Equatable {
    /// The list.
    public var list: LoadState<[AnnouncementSummary]>
    /// The opened announcement.
    public var detail: LoadState<Announcement>
    /// The id of the opened announcement.
    public var openedID: Int?
    /// Whether more pages can be loaded.
    public var hasMore: Bool

    /// Creates a snapshot.
    public init(
        list: LoadState<[AnnouncementSummary]>,
        detail: LoadState<Announcement>,
        openedID: Int?,
        hasMore: Bool
    ) {
        self.list = list
        self.detail = detail
        self.openedID = openedID
        self.hasMore = hasMore
    }
}
