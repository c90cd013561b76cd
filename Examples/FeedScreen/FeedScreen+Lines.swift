extension FeedScreen {
    /// The screen as lines of text, top to bottom, in the same order as the SwiftUI view
    /// (`FeedView`) lays it out: banner, rows, spinner or "load more", then the detail pane.
    public var lines: [String] {
        var lines: [String] = []
        if let banner {
            lines.append("! \(banner)")
        }
        for row in rows {
            lines.append("\(row.isSelected ? ">" : " ") \(row.id). \(row.title)")
        }
        if rows.isEmpty, !isLoading, banner == nil {
            lines.append("  No announcements.")
        }
        if isLoading {
            lines.append("  Loading…")
        } else if showsLoadMore {
            lines.append("  [m] Load more")
        }
        switch detail {
        case nil:
            break
        case .loading?:
            lines.append("--- Opening…")
        case .shown(let title, let text)?:
            lines.append("--- \(title)")
            lines.append(text.isEmpty ? "(no body)" : text)
        case .failed(let message)?:
            lines.append("--- \(message)")
        }
        return lines
    }
}
