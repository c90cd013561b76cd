import Foundation
import IntranetClient

/// Lays out one announcement for reading: the title, a line with its id (and under 2.0 its
/// dates), then the body rendered from HTML, with the numbered link targets underneath.
public struct AnnouncementDetailView: Sendable {
    /// The columns available.
    public var width: Int
    /// Whether to use ANSI styles.
    public var isStyled: Bool

    /// Creates a detail layout.
    ///
    /// - Parameters:
    ///   - width: the terminal width in columns.
    ///   - isStyled: whether the output shows ANSI styles.
    public init(width: Int, isStyled: Bool) {
        self.width = width
        self.isStyled = isStyled
    }

    /// The lines for an announcement.
    ///
    /// - Parameter announcement: the announcement (dates present under 2.0 only).
    public func lines(for announcement: Announcement) -> [String] {
        let renderer = HTMLRenderer(width: width, isStyled: isStyled)
        let title = wrapTitle(announcement.title, renderer: renderer)
        var meta = "Announcement \(announcement.id)"
        if let created = announcement.createdAt {
            meta += " · created \(Self.format(created))"
        }
        if let updated = announcement.updatedAt {
            meta += " · updated \(Self.format(updated))"
        }
        var lines = title + [TextStyle.dim.apply(to: meta, isStyled: isStyled), ""]
        let body = renderer.rendering(of: announcement.body ?? "")
        if body.isEmpty {
            lines.append("(no body)")
        } else {
            lines += body.text.components(separatedBy: "\n")
        }
        return lines
    }

    private func wrapTitle(_ title: String, renderer: HTMLRenderer) -> [String] {
        let block = TextBlock(
            spans: [StyledSpan(title, style: .bold)], firstPrefix: "", prefix: "", layout: .flow, isSeparated: false)
        return BlockLayout(width: renderer.width, isStyled: isStyled).lines(for: [block])
    }

    /// A date as `2026-11-22 09:30 UTC`.
    ///
    /// - Parameter date: the date.
    public static func format(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)) UTC"
    }
}
