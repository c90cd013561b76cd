import Foundation
import IntranetAPI

/// How pages show an announcement's attachments: images inline, in a responsive `srcset` (a
/// phone downloads the 320- or 800-pixel variant, not the original), other files as a list
/// with their size and type.
enum WebAttachments {
    /// The width a page's column takes at most, in CSS pixels (`sizes`).
    static let columnWidth = 720

    /// The template values of `attachments`: `images` and `files` (each only when not empty,
    /// `hasFiles` with the files).
    static func context(_ attachments: [AttachmentDescription]) -> [String: Any] {
        var context: [String: Any] = [:]
        let images = attachments.filter(\.isImage).map(image)
        let files = attachments.filter { !$0.isImage }.map(file)
        if !images.isEmpty { context["images"] = images }
        if !files.isEmpty {
            context["files"] = files
            context["hasFiles"] = true
        }
        return context
    }

    /// The values of one `<img>`: `src` (the variant nearest the column, or the image), its
    /// `srcset` of every width, `sizes`, and `alt` (the file name when no text was given, so
    /// that a screen reader says something).
    static func image(_ attachment: AttachmentDescription) -> [String: Any] {
        let width = attachment.width ?? 0
        let candidates = (attachment.variants ?? []).map { (url: $0.url, width: $0.width) } + [(url: attachment.url, width: width)]
        let src = candidates.first { $0.width >= columnWidth }?.url ?? attachment.url
        return [
            "id": attachment.id,
            "src": src,
            "srcset": candidates.map { "\($0.url) \($0.width)w" }.joined(separator: ", "),
            "sizes": "(max-width: \(columnWidth + 32)px) calc(100vw - 2rem), \(columnWidth)px",
            "width": width,
            "height": attachment.height ?? 0,
            "alt": attachment.alt ?? (attachment.name as NSString).deletingPathExtension,
            "caption": attachment.alt == nil ? "" : attachment.name,
            "name": attachment.name,
            "url": attachment.url,
            "size": size(attachment.size),
        ]
    }

    /// `html` (a sanitised body) with every `<img>` that shows one of `attachments` (by its URL
    /// or a variant's) given that image's `srcset` and `sizes`, so a phone downloads a small
    /// variant of a picture placed in the text too (as the WordPress import places them).
    static func responsiveBody(_ html: String, attachments: [AttachmentDescription]) -> String {
        var html = html
        for attachment in attachments where attachment.isImage {
            let values = image(attachment)
            let extra = " srcset=\"\(values["srcset"] ?? "")\" sizes=\"\(values["sizes"] ?? "")\""
            let urls = [attachment.url] + (attachment.variants ?? []).map(\.url)
            for url in urls where html.contains("src=\"\(url)\"") {
                html = html.replacingOccurrences(of: "src=\"\(url)\"", with: "src=\"\(url)\"" + extra)
            }
        }
        return html
    }

    /// The values of one file's line: its link, name, type and size.
    static func file(_ attachment: AttachmentDescription) -> [String: Any] {
        [
            "id": attachment.id, "url": attachment.url, "name": attachment.name, "type": typeName(attachment.mediaType),
            "size": size(attachment.size),
        ]
    }

    /// `1.4 MB`, `830 KB`, `12 bytes`.
    static func size(_ bytes: Int) -> String {
        switch bytes {
        case ..<1_000: return bytes == 1 ? "1 byte" : "\(bytes) bytes"
        case ..<1_000_000: return "\(Int((Double(bytes) / 1_000).rounded())) KB"
        case ..<1_000_000_000: return String(format: "%.1f MB", Double(bytes) / 1_000_000)
        default: return String(format: "%.1f GB", Double(bytes) / 1_000_000_000)
        }
    }

    /// A media type as people name it: `PDF`, `Word document`, `PNG image`.
    static func typeName(_ mediaType: String) -> String {
        let base = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? mediaType
        if let known = names[base] { return known }
        if base.hasPrefix("image/") { return base.dropFirst(6).uppercased() + " image" }
        if base.hasPrefix("video/") { return "Video" }
        if base.hasPrefix("audio/") { return "Audio" }
        return base
    }

    private static let names = [
        "application/pdf": "PDF",
        "application/zip": "ZIP archive",
        "text/plain": "Text",
        "text/csv": "CSV table",
        "text/markdown": "Markdown text",
        "text/html": "HTML file",
        "image/svg+xml": "SVG drawing",
        "application/msword": "Word document",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "Word document",
        "application/vnd.ms-excel": "Excel workbook",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "Excel workbook",
        "application/vnd.ms-powerpoint": "PowerPoint presentation",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PowerPoint presentation",
        "application/vnd.oasis.opendocument.text": "OpenDocument text",
        "application/vnd.oasis.opendocument.spreadsheet": "OpenDocument spreadsheet",
        "application/vnd.oasis.opendocument.presentation": "OpenDocument presentation",
        "application/octet-stream": "File",
    ]
}
