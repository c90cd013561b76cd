import Foundation

/// The media type of a file that is not an image Intranet cleans, read from its first bytes
/// (a declared type is never believed). Within a container format the name's extension picks
/// the document kind (a `.docx` is a ZIP archive), never the other way round; anything not
/// recognised is `application/octet-stream`. Such files are always served as downloads.
enum FileType {
    static func detect(head: [UInt8], name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) {
            return zipKinds[ext] ?? "application/zip"
        }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return oleKinds[ext] ?? "application/x-ole-storage"
        }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            return ["heic", "heix", "mif1", "heif"].contains(brand) ? "image/heic" : brand.hasPrefix("qt") ? "video/quicktime" : "video/mp4"
        }
        if starts(Array("ID3".utf8)) { return "audio/mpeg" }
        if starts(Array("BM".utf8)) && ext == "bmp" { return "image/bmp" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if starts([0x1F, 0x8B]) { return "application/gzip" }
        guard let text = textPrefix(head) else { return "application/octet-stream" }
        let lowered = text.drop { $0.isWhitespace }.prefix(256).lowercased()
        if lowered.contains("<svg") { return "image/svg+xml" }
        if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") || lowered.hasPrefix("<head") || lowered.hasPrefix("<body")
            || lowered.hasPrefix("<script")
        {
            return "text/html"
        }
        if lowered.hasPrefix("<?xml") { return "application/xml" }
        switch ext {
        case "csv": return "text/csv; charset=utf-8"
        case "md", "markdown": return "text/markdown; charset=utf-8"
        default: return "text/plain; charset=utf-8"
        }
    }

    /// `head` as text when it is UTF-8 (a character cut at the end allowed) without NUL.
    private static func textPrefix(_ head: [UInt8]) -> String? {
        guard !head.isEmpty, !head.contains(0) else { return head.isEmpty ? "" : nil }
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        for cut in 0...3 where bytes.count > cut {
            if let text = String(validating: bytes.dropLast(cut), as: UTF8.self) { return text }
        }
        return nil
    }

    private static let zipKinds = [
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "odp": "application/vnd.oasis.opendocument.presentation",
        "epub": "application/epub+zip",
    ]

    private static let oleKinds = [
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint", "msg": "application/vnd.ms-outlook",
    ]
}
