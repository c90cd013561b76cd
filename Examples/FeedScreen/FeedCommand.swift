import IntranetClient

/// What a person can do on the screen, as the demo reads it from a line of input: the same
/// actions a SwiftUI screen binds to buttons and gestures.
public enum FeedCommand: Sendable, Equatable {
    /// Reload the first page (pull to refresh).
    case refresh
    /// Append the next page.
    case loadMore
    /// Open the announcement with this id.
    case open(Int)
    /// Close the opened announcement.
    case close
    /// Leave.
    case quit

    /// Reads a command: `r`, `m`, `o ID` (or just the id), `c`, `q`; `nil` for anything else.
    ///
    /// - Parameter line: one line of input.
    public init?(_ line: String) {
        let words = line.split(separator: " ")
        switch (words.first, words.count) {
        case ("r"?, 1): self = .refresh
        case ("m"?, 1): self = .loadMore
        case ("c"?, 1): self = .close
        case ("q"?, 1): self = .quit
        case ("o"?, 2): guard let id = Int(words[1]) else { return nil }; self = .open(id)
        case (let word?, 1): guard let id = Int(word) else { return nil }; self = .open(id)
        default: return nil
        }
    }

    /// Carries the command out on the feed; returns `false` for ``quit``.
    ///
    /// Opening an id that is not in the loaded list does nothing, as tapping a row that is
    /// not on screen cannot happen.
    ///
    /// - Parameter feed: the feed behind the screen.
    @discardableResult
    public func perform(on feed: AnnouncementFeed) async -> Bool {
        switch self {
        case .refresh: await feed.refresh()
        case .loadMore: await feed.loadMore()
        case .open(let id):
            if let item = await feed.list.value?.first(where: { $0.id == id }) {
                await feed.open(item)
            }
        case .close: await feed.close()
        case .quit: return false
        }
        return true
    }
}
