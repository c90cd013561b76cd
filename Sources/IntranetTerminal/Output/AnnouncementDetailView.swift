import Foundation
import IntranetAPI
import IntranetClient

/// Lays out one announcement for reading: the title, a line with its id (and under 2.0 its
/// dates), then the body rendered from HTML, with the numbered link targets underneath, and
/// its attachments (3.0).
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
        var lines = title + [TextStyle.dim.apply(to: meta, isStyled: isStyled)]
        if let publishing = announcement.publishing {
            lines += publishingLines(publishing, audience: announcement.audience, readers: announcement.readers)
        }
        if let acknowledgement = announcement.acknowledgement {
            var line = "Asks you to confirm you have read it"
            if let dueAt = acknowledgement.dueAt { line += " by \(Self.format(dueAt))" }
            if let given = acknowledgement.acknowledgedAt {
                line = "You confirmed it \(Self.format(given))"
            } else {
                line += ": intranet ack \(announcement.id)"
            }
            lines.append(line)
        }
        lines.append("")
        let body = renderer.rendering(of: announcement.body ?? "")
        if body.isEmpty {
            lines.append("(no body)")
        } else {
            lines += body.text.components(separatedBy: "\n")
        }
        if !announcement.attachments.isEmpty {
            lines += [""] + attachmentLines(announcement.attachments, of: announcement.id)
        }
        return lines
    }

    /// The attachments under the body, one a line: name, type, size, an image's pixels and
    /// alternative text; then how to save one.
    private func attachmentLines(_ attachments: [AttachmentDescription], of id: Int) -> [String] {
        var lines = [TextStyle.bold.apply(to: "Attachments", isStyled: isStyled)]
        for attachment in attachments {
            var parts = [attachment.name, AttachmentTable.type(of: attachment), ByteCount.format(Int64(attachment.size))]
            let pixels = AttachmentTable.pixels(of: attachment)
            if !pixels.isEmpty { parts.append(pixels) }
            if let alt = attachment.alt { parts.append("alt: \(alt)") }
            lines.append(DisplayWidth.truncate("  " + parts.joined(separator: " · "), toWidth: width))
        }
        lines.append(TextStyle.dim.apply(to: "Save one with: intranet download \(id) NAME", isStyled: isStyled))
        return lines
    }

    private func wrapTitle(_ title: String, renderer: HTMLRenderer) -> [String] {
        let block = TextBlock(
            spans: [StyledSpan(title, style: .bold)], firstPrefix: "", prefix: "", layout: .flow, isSeparated: false)
        return BlockLayout(width: renderer.width, isStyled: isStyled).lines(for: [block])
    }

    /// The marks and times of a 3.0 announcement: `IMPORTANT`, `Pinned`, draft, schedule and
    /// expiry in local time, and for editors the audience (with a warning when it reaches no one).
    private func publishingLines(
        _ publishing: AnnouncementV3.Publishing, audience: AnnouncementAudience?, readers: AnnouncementReaders?
    ) -> [String] {
        // The marks on one line (short), each time on a line of its own (so none is cut).
        var marks: [String] = []
        if publishing.important { marks.append(TextStyle.bold.apply(to: "IMPORTANT", isStyled: isStyled)) }
        if publishing.pinned { marks.append("Pinned") }
        if publishing.status == .draft { marks.append("Draft: editors only") }
        var lines = marks.isEmpty ? [] : [marks.joined(separator: " · ")]
        if publishing.pinned, let until = publishing.pinnedUntil { lines.append("Pinned until \(Self.format(until))") }
        if let publishAt = publishing.publishAt { lines.append("Published from \(Self.format(publishAt))") }
        if let expiresAt = publishing.expiresAt { lines.append("Expires \(Self.format(expiresAt))") }
        if let audience {
            let named = audience.departments.map { "department \($0)" } + audience.teams.map { "team of person \($0)" }
            // Readers `null` (everyone) or none named: with an empty audience, nobody but editors.
            let namesNobody = readers.map { if case .only(let ids) = $0 { ids.isEmpty } else { true } } ?? true
            if named.isEmpty, namesNobody {
                lines.append(TextStyle.bold.apply(to: "Warning: the audience is empty, so only editors and admins see it", isStyled: isStyled))
            } else if !named.isEmpty {
                lines.append("Audience: " + named.joined(separator: ", "))
            }
        }
        return lines.map { DisplayWidth.truncate($0, toWidth: width) }
    }

    /// A date as `2026-11-22 09:30 UTC`, in the terminal's local time zone (`TZ`).
    ///
    /// - Parameter date: the date.
    public static func format(_ date: Date) -> String {
        LocalTime.format(date)
    }
}
