import Foundation
import IntranetHTML

/// Turns a post's stored content (`content:encoded`) into what a reader of the WordPress site
/// saw, before the sanitiser makes it safe:
///
/// - block-editor content (it has `<!-- wp:… -->` markers) keeps its HTML; the markers go
///   (the sanitiser drops every comment);
/// - classic-editor content gets its paragraphs the way WordPress shows them: a blank line
///   starts a paragraph, a single line break becomes `<br>` — never inside `<pre>`, lists or
///   tables, and never around block elements;
/// - the shortcodes that carry content become plain HTML: `[caption]` a figure with its
///   caption, `[embed]` and the sources of `[video]` and `[audio]` a link. Any other
///   shortcode stays as the text it is.
enum WordPressContent {
    /// The post's body as HTML a reader should see (not yet sanitised).
    static func readerHTML(_ content: String) -> String {
        let normalized = content.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let expanded = expandShortcodes(normalized)
        guard normalized.contains("<!-- wp:") else { return paragraphs(expanded) }
        let withoutMarkers = expanded.replacing(/<!--\s*\/?wp:[^>]*?-->/, with: "")
        return withoutMarkers.replacing(/\n{3,}/, with: "\n\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Shortcodes

    /// `[name attributes]content[/name]` or `[name attributes]` for the four shortcodes
    /// with content; `[[name]]` is WordPress's escape for a literal shortcode and stays.
    static func expandShortcodes(_ text: String) -> String {
        var output = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "]") else { break }
            let tag = rest[afterOpen..<close]
            let name = String(tag.prefix { $0.isLetter || $0 == "_" }).lowercased()
            guard ["caption", "wp_caption", "embed", "video", "audio"].contains(name),
                  !output.hasSuffix("[")
            else {
                output += "["
                rest = rest[afterOpen...]
                continue
            }
            let attributes = shortcodeAttributes(tag.dropFirst(name.count))
            var inner: Substring = ""
            var end = rest.index(after: close)
            if let closing = rest[end...].range(of: "[/\(name)]", options: .caseInsensitive) {
                inner = rest[end..<closing.lowerBound]
                end = closing.upperBound
            } else if name == "caption" || name == "wp_caption" || name == "embed" {
                // These always close; unclosed, the text stays as written.
                output += "["
                rest = rest[afterOpen...]
                continue
            }
            output += html(ofShortcode: name, attributes: attributes, content: String(inner))
            rest = rest[end...]
        }
        return output + rest
    }

    private static func html(ofShortcode name: String, attributes: [String: String], content: String) -> String {
        switch name {
        case "embed":
            let url = content.trimmingCharacters(in: .whitespacesAndNewlines)
            return link(url)
        case "video", "audio":
            let sources = name == "video" ? ["src", "mp4", "m4v", "webm", "ogv", "wmv", "flv"] : ["src", "mp3", "m4a", "ogg", "wav", "wma"]
            guard let source = sources.lazy.compactMap({ attributes[$0] }).first(where: { !$0.isEmpty }) else { return "" }
            return link(source)
        default:
            // [caption]<a><img></a> The caption text[/caption], or the caption as an attribute.
            var image = ""
            var caption = attributes["caption"] ?? ""
            if let imageEnd = imageMarkupEnd(in: content) {
                image = String(content[..<imageEnd])
                let text = content[imageEnd...].trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { caption = text }
            } else {
                image = content
            }
            let figcaption = caption.isEmpty ? "" : "<figcaption>\(caption)</figcaption>"
            return "\n\n<figure>\(image.trimmingCharacters(in: .whitespacesAndNewlines))\(figcaption)</figure>\n\n"
        }
    }

    /// Where the leading `<img …>` (or `<a …><img …></a>`) of a caption's content ends.
    private static func imageMarkupEnd(in content: String) -> String.Index? {
        let trimmed = content.drop { $0.isWhitespace }
        guard trimmed.lowercased().hasPrefix("<a") || trimmed.lowercased().hasPrefix("<img") else { return nil }
        if trimmed.lowercased().hasPrefix("<a"), let close = trimmed.range(of: "</a>", options: .caseInsensitive) {
            return close.upperBound
        }
        return trimmed.firstIndex(of: ">").map { trimmed.index(after: $0) }
    }

    private static func link(_ url: String) -> String {
        guard !url.isEmpty else { return "" }
        let escaped = escape(url)
        return "\n\n<p><a href=\"\(escaped)\">\(escaped)</a></p>\n\n"
    }

    /// `name="value"`, `name='value'` and `name=value` pairs.
    static func shortcodeAttributes(_ text: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            guard !name.isEmpty else { break }
            rest = rest.dropFirst(name.count).drop { $0.isWhitespace }
            guard rest.first == "=" else {
                attributes[name.lowercased()] = ""
                continue
            }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            let value: Substring
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let body = rest.dropFirst()
                value = body.prefix { $0 != quote }
                rest = body.dropFirst(value.count).dropFirst()
            } else {
                value = rest.prefix { !$0.isWhitespace }
                rest = rest.dropFirst(value.count)
            }
            attributes[name.lowercased()] = String(value)
        }
        return attributes
    }

    // MARK: Paragraphs

    /// Block elements: a paragraph never wraps them, and they stand on their own.
    private static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p",
        "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "dd", "dt",
        "caption", "colgroup", "col", "iframe", "video", "audio", "object", "embed", "script", "style", "math", "svg",
    ]

    /// Elements whose whole content is kept exactly as written; the block ones also stand
    /// on their own, outside any paragraph.
    private static let verbatimElements: Set<String> = ["pre", "ul", "ol", "dl", "table", "script", "style", "svg", "math"]
    private static let inlineVerbatimElements: Set<String> = ["script", "style", "svg", "math"]

    /// Classic-editor text with WordPress's paragraphs and line breaks.
    static func paragraphs(_ text: String) -> String {
        // Set the verbatim elements aside, as whole units, so nothing below touches them.
        var units: [String] = []
        var spaced = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            spaced += rest[..<open]
            let tagName = elementName(at: rest[open...])
            if let name = tagName.opening, verbatimElements.contains(name), let end = endOfElement(name, in: rest, from: open) {
                let placeholder = "\u{E000}\(units.count)\u{E001}"
                spaced += inlineVerbatimElements.contains(name) ? placeholder : "\n\n" + placeholder + "\n\n"
                units.append(String(rest[open..<end]))
                rest = rest[end...]
                continue
            }
            let tagEnd = rest[open...].firstIndex(of: ">").map { rest.index(after: $0) } ?? rest.endIndex
            let tag = rest[open..<tagEnd]
            if let name = tagName.opening ?? tagName.closing, blockElements.contains(name) {
                spaced += tagName.opening != nil ? "\n\n\(tag)" : "\(tag)\n\n"
            } else {
                spaced += tag
            }
            rest = rest[tagEnd...]
        }
        spaced += rest

        var output: [String] = []
        for chunk in spaced.split(separator: "\n\n", omittingEmptySubsequences: true) {
            let trimmed = chunk.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            if trimmed.hasPrefix("\u{E000}") && trimmed.hasSuffix("\u{E001}") || startsWithBlockTag(trimmed) {
                output.append(trimmed)
            } else {
                let lines = trimmed.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                output.append("<p>" + lines.joined(separator: "<br>\n") + "</p>")
            }
        }
        var joined = output.joined(separator: "\n")
        for (index, unit) in units.enumerated().reversed() {
            joined = joined.replacingOccurrences(of: "\u{E000}\(index)\u{E001}", with: unit)
        }
        return joined
    }

    private static func startsWithBlockTag(_ text: String) -> Bool {
        guard text.hasPrefix("<") else { return false }
        let name = elementName(at: Substring(text))
        return (name.opening ?? name.closing).map(blockElements.contains) ?? false
    }

    /// The lower-case name of the start or end tag at the start of `text`.
    private static func elementName(at text: Substring) -> (opening: String?, closing: String?) {
        var rest = text.dropFirst()
        let closing = rest.first == "/"
        if closing { rest = rest.dropFirst() }
        let name = rest.prefix { $0.isLetter || $0.isNumber }.lowercased()
        guard !name.isEmpty, name.first?.isLetter == true else { return (nil, nil) }
        return closing ? (nil, name) : (name, nil)
    }

    /// The end of the element named `name` that opens at `start`, counting nested ones of
    /// the same name; `nil` when it never closes.
    private static func endOfElement(_ name: String, in text: Substring, from start: Substring.Index) -> Substring.Index? {
        var depth = 0
        var position = start
        while let open = text[position...].firstIndex(of: "<") {
            let tag = elementName(at: text[open...])
            let tagEnd = text[open...].firstIndex(of: ">").map { text.index(after: $0) } ?? text.endIndex
            if tag.opening == name { depth += 1 }
            if tag.closing == name {
                depth -= 1
                if depth == 0 { return tagEnd }
            }
            position = tagEnd
            if position == text.endIndex { break }
        }
        return nil
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
