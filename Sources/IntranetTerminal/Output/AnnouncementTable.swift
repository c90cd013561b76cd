import IntranetClient

/// Lays out announcement list items as an aligned table fitted to the terminal width:
/// right-aligned ids, titles cut with `…` when they do not fit.
///
/// Neither version's list carries dates (1.0 items are id, title and body; 2.0 items id and
/// title), so the table shows id and title; `show` prints the dates 2.0 details carry.
public struct AnnouncementTable: Sendable {
    /// The columns available.
    public var width: Int
    /// Whether the header is bold.
    public var isStyled: Bool

    /// Creates a table layout.
    ///
    /// - Parameters:
    ///   - width: the terminal width in columns.
    ///   - isStyled: whether the output shows ANSI styles.
    public init(width: Int, isStyled: Bool) {
        self.width = width
        self.isStyled = isStyled
    }

    /// The table's lines: a header, one row per item, and `footer` when given.
    ///
    /// - Parameters:
    ///   - items: the announcements, in order.
    ///   - footer: a line such as `Page 1 of 2 · 12 announcements`.
    public func lines(for items: [AnnouncementSummary], footer: String? = nil) -> [String] {
        guard !items.isEmpty else {
            return ["No announcements."] + (footer.map { [$0] } ?? [])
        }
        let idWidth = max(2, items.map { String($0.id).count }.max() ?? 2)
        let titleWidth = max(5, width - idWidth - 2)
        let header = String(repeating: " ", count: idWidth - 2) + "ID  TITLE"
        var lines = [TextStyle.bold.apply(to: header, isStyled: isStyled)]
        for item in items {
            let id = String(item.id)
            let title = DisplayWidth.truncate(item.title.replacingNewlines(), toWidth: titleWidth)
            lines.append(String(repeating: " ", count: idWidth - id.count) + id + "  " + title)
        }
        if let footer {
            lines.append(TextStyle.dim.apply(to: DisplayWidth.truncate(footer, toWidth: width), isStyled: isStyled))
        }
        return lines
    }
}

private extension String {
    /// Line breaks and tabs in a title would break the table: show them as spaces.
    func replacingNewlines() -> String {
        String(map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
