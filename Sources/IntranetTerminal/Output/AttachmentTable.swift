import IntranetAPI

/// Lays out an announcement's attachments as an aligned table: right-aligned id, the name
/// (cut with `…` at the terminal's edge), the media type, the size for people, and an image's
/// width × height in pixels.
struct AttachmentTable: Sendable {
    /// The columns available.
    var width: Int
    /// Whether the header is bold.
    var isStyled: Bool

    /// The table's lines: a header and one row per attachment, in the order given.
    ///
    /// - Parameter attachments: the attachments.
    func lines(for attachments: [AttachmentDescription]) -> [String] {
        let rows = attachments.map { attachment in
            (String(attachment.id), attachment.name, Self.type(of: attachment), ByteCount.format(Int64(attachment.size)), Self.pixels(of: attachment))
        }
        let idWidth = max(2, rows.map(\.0.count).max() ?? 2)
        let typeWidth = max(4, rows.map { DisplayWidth.of($0.2) }.max() ?? 4)
        let sizeWidth = max(4, rows.map(\.3.count).max() ?? 4)
        let hasPixels = rows.contains { !$0.4.isEmpty }
        let pixelsWidth = hasPixels ? max(6, rows.map { DisplayWidth.of($0.4) }.max() ?? 6) + 2 : 0
        let fixed = idWidth + typeWidth + sizeWidth + pixelsWidth + 6
        let nameWidth = min(max(4, rows.map { DisplayWidth.of($0.1) }.max() ?? 4), max(8, width - fixed))
        func line(_ row: (String, String, String, String, String)) -> String {
            var text = String(repeating: " ", count: idWidth - row.0.count) + row.0 + "  "
                + DisplayWidth.padded(DisplayWidth.truncate(row.1, toWidth: nameWidth), toWidth: nameWidth) + "  "
                + DisplayWidth.padded(row.2, toWidth: typeWidth) + "  "
                + String(repeating: " ", count: sizeWidth - row.3.count) + row.3
            if hasPixels, !row.4.isEmpty { text += "  " + row.4 }
            return text
        }
        let header = line(("ID", "NAME", "TYPE", "SIZE", hasPixels ? "PIXELS" : ""))
        return [TextStyle.bold.apply(to: header, isStyled: isStyled)] + rows.map(line)
    }

    /// The media type without its parameters (`text/plain`, not `text/plain; charset=utf-8`).
    static func type(of attachment: AttachmentDescription) -> String {
        String(attachment.mediaType.prefix { $0 != ";" })
    }

    /// `1200×800` for an image; empty for other files.
    static func pixels(of attachment: AttachmentDescription) -> String {
        guard let width = attachment.width, let height = attachment.height else { return "" }
        return "\(width)×\(height)"
    }
}
