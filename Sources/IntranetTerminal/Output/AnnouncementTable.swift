import Foundation
import IntranetClient

/// Lays out announcement list items as an aligned table fitted to the terminal width:
/// right-aligned ids, titles cut with `…` when they do not fit.
///
/// The table shows id and title; under 3.0 a title is marked `[pinned]` (pinned ones come
/// first, as the server lists them), `[!]` for an important one, `[confirm]` for one that asks
/// readers to confirm they read it, and an
/// editor's list of drafts, scheduled or expired ones shows them as such.
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
            let title = DisplayWidth.truncate(marks(of: item) + item.title.replacingNewlines(), toWidth: titleWidth)
            lines.append(String(repeating: " ", count: idWidth - id.count) + id + "  " + title)
        }
        if let footer {
            lines.append(TextStyle.dim.apply(to: DisplayWidth.truncate(footer, toWidth: width), isStyled: isStyled))
        }
        return lines
    }

    /// `[!] ` for an important item, `[pinned] ` for a pinned one, `[scheduled …] ` for one not
    /// yet published, `[draft] `.
    private func marks(of item: AnnouncementSummary) -> String {
        guard let publishing = item.publishing else { return "" }
        var marks = ""
        if publishing.status == .draft { marks += "[draft] " }
        if let publishAt = publishing.publishAt, publishAt > Date() { marks += "[from \(LocalTime.format(publishAt))] " }
        if let expiresAt = publishing.expiresAt, expiresAt <= Date() { marks += "[expired] " }
        if publishing.pinned { marks += "[pinned] " }
        if publishing.important { marks += "[!] " }
        if item.acknowledgement != nil { marks += "[confirm] " }
        return marks
    }
}

private extension String {
    /// Line breaks and tabs in a title would break the table: show them as spaces.
    func replacingNewlines() -> String {
        String(map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
