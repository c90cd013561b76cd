import IntranetClient

/// Everything an announcements screen shows at one moment, derived from a ``FeedSnapshot``:
/// the value a SwiftUI view or a terminal renders, so the two cannot disagree.
///
/// ```swift
/// for await snapshot in await feed.snapshots() {
///     screen = FeedScreen(snapshot)   // then draw screen.rows, screen.banner, screen.detail…
/// }
/// ```
public struct FeedScreen: Sendable, Equatable {
    /// One announcement in the list.
    public struct Row: Sendable, Equatable, Identifiable {
        /// The announcement's id.
        public var id: Int
        /// Its title.
        public var title: String
        /// Whether it is the one opened.
        public var isSelected: Bool
    }

    /// The opened announcement's pane.
    public enum Detail: Sendable, Equatable {
        /// Fetching it (2.0 lists carry no bodies).
        case loading
        /// Its title and body as plain text.
        case shown(title: String, text: String)
        /// It could not be opened; the message says why.
        case failed(String)
    }

    /// The list, in order.
    public var rows: [Row]
    /// A message above the list when the last list request failed.
    public var banner: String?
    /// Whether a spinner shows (the first load, a refresh, a next page).
    public var isLoading: Bool
    /// Whether a "Load more" button shows.
    public var showsLoadMore: Bool
    /// The opened announcement, or `nil` when none is.
    public var detail: Detail?

    /// The screen for a feed's state.
    ///
    /// - Parameter snapshot: the feed's state, e.g. from `AnnouncementFeed.snapshots()`.
    public init(_ snapshot: FeedSnapshot) {
        rows = (snapshot.list.value ?? []).map {
            Row(id: $0.id, title: $0.title, isSelected: $0.id == snapshot.openedID)
        }
        banner = snapshot.list.errorMessage ?? FeedScreen.banner(for: snapshot.listFreshness)
        isLoading = snapshot.list.isLoading
        showsLoadMore = snapshot.hasMore && !snapshot.list.isLoading
        guard snapshot.openedID != nil else {
            detail = nil
            return
        }
        switch snapshot.detail {
        case .loaded(let announcement):
            detail = .shown(title: announcement.title, text: PlainText.of(announcement.body))
        case .failed(let message, _):
            detail = .failed(message)
        case .idle, .loading:
            detail = .loading
        }
    }

    /// The banner for a list from the device's store: only when the server cannot be reached
    /// (a list being refreshed shows "Loading…" instead).
    static func banner(for freshness: Freshness) -> String? {
        guard case .offline = freshness else { return nil }
        return "Offline: showing the announcements kept on this device."
    }
}
