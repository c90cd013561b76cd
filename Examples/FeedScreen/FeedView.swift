#if canImport(SwiftUI)
import IntranetClient
import SwiftUI

/// The SwiftUI twin of `feed-demo`: the same ``FeedScreen``, drawn in the same order as
/// ``FeedScreen/lines`` (banner, rows, spinner or "Load more", detail), with the same
/// ``FeedCommand``s behind its buttons. Compiled only where SwiftUI exists.
public struct FeedView: View {
    let feed: AnnouncementFeed
    @State private var screen = FeedScreen(FeedSnapshot(list: .idle, detail: .idle, openedID: nil, hasMore: false))

    /// A view over a feed, e.g. `AnnouncementFeed(repository: intranet.announcements)`.
    public init(feed: AnnouncementFeed) {
        self.feed = feed
    }

    public var body: some View {
        NavigationStack {
            List {
                if let banner = screen.banner {
                    Text(banner).foregroundStyle(.red)
                }
                ForEach(screen.rows) { row in
                    Button(row.title) { Task { await FeedCommand.open(row.id).perform(on: feed) } }
                        .bold(row.isSelected)
                }
                if screen.rows.isEmpty, !screen.isLoading, screen.banner == nil {
                    Text("No announcements.")
                }
                if screen.isLoading {
                    ProgressView()
                } else if screen.showsLoadMore {
                    Button("Load more") { Task { await FeedCommand.loadMore.perform(on: feed) } }
                }
                switch screen.detail {
                case nil:
                    EmptyView()
                case .loading?:
                    ProgressView("Opening…")
                case .shown(let title, let text)?:
                    Section(title) { Text(text.isEmpty ? "(no body)" : text) }
                case .failed(let message)?:
                    Text(message).foregroundStyle(.red)
                }
            }
            .refreshable { await FeedCommand.refresh.perform(on: feed) }
            .navigationTitle("Announcements")
        }
        .task {
            await FeedCommand.refresh.perform(on: feed)
        }
        .task {
            for await snapshot in await feed.snapshots() {
                screen = FeedScreen(snapshot)
            }
        }
    }
}
#endif
