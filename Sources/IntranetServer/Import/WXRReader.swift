import CLibXML2
import Foundation

/// One `<item>` of a WordPress export, as written in the file (nothing decoded beyond XML).
struct WXRItem: Sendable, Equatable {
    var title = ""
    var link = ""
    var creator = ""
    var content = ""
    var postID = ""
    var postDate = ""
    var postDateGMT = ""
    var modified = ""
    var modifiedGMT = ""
    var status = ""
    var postType = ""
    var password = ""
    /// `wp:is_sticky` 1: the post is kept on top of the blog.
    var isSticky = false
    /// How many `<wp:comment>` the item carries.
    var comments = 0
    /// An attachment's file (`wp:attachment_url`).
    var attachmentURL = ""
    /// The post an attachment was uploaded to (`wp:post_parent`; `0` for none).
    var postParent = ""
}

/// A `<wp:author>` of the export.
struct WXRAuthor: Sendable, Equatable {
    var login = ""
    var displayName = ""
}

/// What the export says about the site, read before its first item.
struct WXRChannel: Sendable, Equatable {
    var title = ""
    var link = ""
    var baseSiteURL = ""
    var baseBlogURL = ""
    var version = ""
    var authors: [WXRAuthor] = []
}

/// Why a file cannot be imported, with where in it the problem is.
struct WXRError: Error, Equatable, CustomStringConvertible {
    var message: String
    var line: Int
    var column: Int

    var description: String { "line \(line), column \(column): \(message)" }
}

/// Reads a WordPress eXtended RSS export (WXR 1.0–1.2) as a stream, with libxml2's pull
/// parser: memory holds one item at a time, whatever the file's size.
///
/// Safe with hostile files: no DTD is accepted (so no entity can be declared, and no
/// "billion laughs" expanded), nothing external is ever loaded (no network, no external
/// entities), an undefined entity or a truncated file is an error, and libxml2's own limits
/// stay on — one text node (a post's body) may be at most 10,000,000 bytes.
final class WXRReader {
    private let reader: xmlTextReaderPtr
    private let errors: ErrorBox
    /// The channel's description; complete once ``nextItem()`` has returned the first item.
    private(set) var channel = WXRChannel()
    private var sawRoot = false

    /// The libxml2 options: no network, and nothing that loads or substitutes entities.
    private static let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)

    private final class ErrorBox {
        var first: WXRError?
    }

    /// Opens `path`; nothing is read until ``nextItem()``.
    init(path: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard size != 0 else {
            throw WXRError(message: "the file is empty", line: 1, column: 1)
        }
        guard let reader = xmlReaderForFile(path, nil, Self.options) else {
            throw WXRError(message: "cannot open the file", line: 0, column: 0)
        }
        self.reader = reader
        errors = ErrorBox()
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            let box = Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue()
            guard box.first == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
            box.first = WXRError(
                message: message.trimmingCharacters(in: .whitespacesAndNewlines),
                line: Int(error.pointee.line), column: Int(error.pointee.int2))
        }, Unmanaged.passUnretained(errors).toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
    }

    /// Bytes of the file parsed so far.
    var bytesRead: Int { Int(xmlTextReaderByteConsumed(reader)) }

    /// The next item, or `nil` at the end of the file.
    ///
    /// - Throws: ``WXRError`` for malformed XML or a file that is not a WordPress export.
    func nextItem() throws -> WXRItem? {
        while try read() {
            let type = xmlTextReaderNodeType(reader)
            if type == XML_READER_TYPE_DOCUMENT_TYPE.rawValue {
                throw failure("the file declares a DTD (<!DOCTYPE>); WordPress exports have none, and DTDs and entity declarations are refused")
            }
            guard type == XML_READER_TYPE_ELEMENT.rawValue else { continue }
            let (space, name) = currentName()
            if !sawRoot {
                sawRoot = true
                guard space == .none, name == "rss" else {
                    throw failure("not a WordPress export: the document is <\(name)>, not <rss>")
                }
                continue
            }
            switch (space, name) {
            case (.none, "item"):
                guard !channel.version.isEmpty else {
                    throw failure("not a WordPress export: no <wp:wxr_version> before the first <item>")
                }
                return try readItem()
            case (.wordpress, "wxr_version"):
                channel.version = try text()
                guard channel.version.hasPrefix("1.") else {
                    throw failure("WXR version \(channel.version) is not one this importer reads (1.0 to 1.2)")
                }
            case (.wordpress, "base_site_url"):
                channel.baseSiteURL = try text()
            case (.wordpress, "base_blog_url"):
                channel.baseBlogURL = try text()
            case (.wordpress, "author"):
                channel.authors.append(try readAuthor())
            case (.none, "title") where depth == 2 && channel.title.isEmpty:
                channel.title = try text()
            case (.none, "link") where depth == 2 && channel.link.isEmpty:
                channel.link = try text()
            default:
                continue
            }
        }
        if !sawRoot {
            throw failure("the file is empty")
        }
        if channel.version.isEmpty {
            throw failure("not a WordPress export: no <wp:wxr_version>")
        }
        return nil
    }

    // MARK: Elements

    private func readItem() throws -> WXRItem {
        var item = WXRItem()
        try forEachChildElement { name in
            switch name {
            case (.none, "title"): item.title = try text()
            case (.none, "link"): item.link = try text()
            case (.dublinCore, "creator"): item.creator = try text()
            case (.content, "encoded"): item.content = try text()
            case (.wordpress, "post_id"): item.postID = try text()
            case (.wordpress, "post_date"): item.postDate = try text()
            case (.wordpress, "post_date_gmt"): item.postDateGMT = try text()
            case (.wordpress, "post_modified"): item.modified = try text()
            case (.wordpress, "post_modified_gmt"): item.modifiedGMT = try text()
            case (.wordpress, "status"): item.status = try text()
            case (.wordpress, "post_type"): item.postType = try text()
            case (.wordpress, "post_password"): item.password = try text()
            case (.wordpress, "is_sticky"): item.isSticky = try text().trimmingCharacters(in: .whitespaces) == "1"
            case (.wordpress, "comment"): item.comments += 1
            case (.wordpress, "attachment_url"): item.attachmentURL = try text()
            case (.wordpress, "post_parent"): item.postParent = try text()
            default: break
            }
        }
        return item
    }

    private func readAuthor() throws -> WXRAuthor {
        var author = WXRAuthor()
        try forEachChildElement { name in
            switch name {
            case (.wordpress, "author_login"): author.login = try text()
            case (.wordpress, "author_display_name"): author.displayName = try text()
            default: break
            }
        }
        return author
    }

    /// Calls `body` on each child element of the element the reader is on (the reader on the
    /// child's start), and leaves the reader on the element's end.
    private func forEachChildElement(_ body: ((Space, String)) throws -> Void) throws {
        guard !isEmptyElement else { return }
        let parentDepth = depth
        while try read() {
            let type = xmlTextReaderNodeType(reader)
            if type == XML_READER_TYPE_END_ELEMENT.rawValue && depth == parentDepth { break }
            guard type == XML_READER_TYPE_ELEMENT.rawValue, depth == parentDepth + 1 else { continue }
            try body(currentName())
        }
    }

    /// The text of the element the reader is on (CDATA sections joined), leaving the reader
    /// on its end.
    private func text() throws -> String {
        guard !isEmptyElement else { return "" }
        let elementDepth = depth
        var bytes: [UInt8] = []
        while try read() {
            let type = xmlTextReaderNodeType(reader)
            if type == XML_READER_TYPE_END_ELEMENT.rawValue && depth == elementDepth { break }
            if type == XML_READER_TYPE_TEXT.rawValue || type == XML_READER_TYPE_CDATA.rawValue
                || type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue || type == XML_READER_TYPE_WHITESPACE.rawValue,
               let value = xmlTextReaderConstValue(reader) {
                let length = strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
                bytes.append(contentsOf: UnsafeBufferPointer(start: value, count: length))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: The reader

    enum Space {
        case none, wordpress, content, dublinCore, other
    }

    private func currentName() -> (Space, String) {
        let name = xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
        guard let uri = xmlTextReaderConstNamespaceUri(reader).map({ String(cString: $0) }) else { return (.none, name) }
        return (Self.space(ofNamespace: uri), name)
    }

    /// The vocabulary a namespace URI names.
    ///
    /// WordPress has written its own as `http://wordpress.org/export/1.0/` to `…/1.2/`, and
    /// WordPress.com writes the same with `https`; WordPress's own importer goes by the `wp`
    /// prefix whatever URI it is bound to, so every export version and both schemes are the
    /// WordPress vocabulary here (a version this reader does not know is refused by
    /// `wxr_version`, with a message that says so). The excerpt namespace (`…/1.2/excerpt/`)
    /// is not: nothing is read from it. Content and Dublin Core are accepted with either scheme.
    static func space(ofNamespace uri: String) -> Space {
        let scheme = uri.hasPrefix("https://") ? "https://" : "http://"
        guard uri.hasPrefix(scheme) else { return .other }
        let rest = uri.dropFirst(scheme.count)
        if rest.hasPrefix("wordpress.org/export/") {
            let version = rest.dropFirst("wordpress.org/export/".count)
            guard version.hasSuffix("/"), !version.dropLast().contains("/") else { return .other }
            return .wordpress
        }
        if rest == "purl.org/rss/1.0/modules/content/" { return .content }
        if rest == "purl.org/dc/elements/1.1/" { return .dublinCore }
        return .other
    }

    private var depth: Int32 { xmlTextReaderDepth(reader) }
    private var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// Advances; false at the end of the file.
    private func read() throws -> Bool {
        let result = xmlTextReaderRead(reader)
        if let error = errors.first { throw error }
        if result < 0 { throw failure("malformed XML") }
        return result == 1
    }

    private func failure(_ message: String) -> WXRError {
        if let error = errors.first { return error }
        return WXRError(
            message: message, line: Int(xmlTextReaderGetParserLineNumber(reader)),
            column: Int(xmlTextReaderGetParserColumnNumber(reader)))
    }
}
