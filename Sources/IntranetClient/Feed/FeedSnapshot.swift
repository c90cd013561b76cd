import Foundation
import RESTRepository

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
    /// How current the list shown is: for a "last updated" line or an offline banner.
    public var listFreshness: Freshness
    /// How current the opened announcement is.
    public var detailFreshness: Freshness
    /// The acknowledgements the feed gave or found, by announcement id.
    public var acknowledgements: [Int: AcknowledgementState]

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - list: the list.
    ///   - detail: the opened announcement.
    ///   - openedID: the id of the opened announcement.
    ///   - hasMore: whether more pages can be loaded.
    ///   - listFreshness: how current the list is.
    ///   - detailFreshness: how current the opened announcement is.
    ///   - acknowledgements: the acknowledgements given or found, by announcement id.
    public init(
        list: LoadState<[AnnouncementSummary]>,
        detail: LoadState<Announcement>,
        openedID: Int?,
        hasMore: Bool,
        listFreshness: Freshness = .fresh,
        detailFreshness: Freshness = .fresh,
        acknowledgements: [Int: AcknowledgementState] = [:]
    ) {
        self.acknowledgements = acknowledgements
        self.list = list
        self.detail = detail
        self.openedID = openedID
        self.hasMore = hasMore
        self.listFreshness = listFreshness
        self.detailFreshness = detailFreshness
    }
}

/// An acknowledgement as a screen shows it.
public enum AcknowledgementState: Sendable, Equatable {
    /// Given just now, on its way to the server.
    case sending
    /// Given while the server could not be reached (at this time): kept on the device, sent on
    /// a later refresh. A screen shows it as given.
    case queued(since: Date)
    /// Confirmed by the server: first given at this time.
    case confirmed(at: Date)
    /// Refused by the server (the post is gone, hidden, or no longer asks).
    case failed(message: String)

    /// Whether the user gave it (sending, queued or confirmed): the button shows it as done.
    public var isGiven: Bool {
        if case .failed = self { return false }
        return true
    }
}

/// How current what a screen shows is, from where its data came.
public enum Freshness: Sendable, Equatable {
    /// From the server just now (or confirmed by it), or nothing shown yet.
    case fresh
    /// From the device's response store, last confirmed by the server at this time; a
    /// fresher answer is being asked for, or was not asked for.
    case stale(since: Date)
    /// From the device's response store because the server cannot be reached; last confirmed
    /// at this time. A screen shows an offline banner.
    case offline(since: Date)

    /// The freshness of an answer from `origin`.
    ///
    /// - Parameter origin: where the answer came from.
    public init(_ origin: ResponseOrigin) {
        let since = origin.confirmedAt ?? Date()
        switch origin.source {
        case .network, .revalidated: self = .fresh
        case .store: self = .stale(since: since)
        case .storeWhileUnreachable: self = .offline(since: since)
        }
    }

    /// Whether the data came from the store without the server confirming it now.
    public var isStale: Bool { self != .fresh }
}
