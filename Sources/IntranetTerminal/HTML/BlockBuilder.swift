import IntranetHTML
import Foundation

/// Walks an HTML tree and turns it into ``TextBlock``s and a numbered list of link targets.
///
/// Block elements (paragraphs, headings, lists, quotes, `<pre>`, embeds) start new blocks;
/// inline elements add styled spans to the current one. White space is collapsed as a
/// browser does outside `<pre>`. Scripts, styles and other non-content elements are dropped.
struct BlockBuilder {
    private(set) var blocks: [TextBlock] = []
    private(set) var links: [String] = []

    var spans: [StyledSpan] = []
    var style: TextStyle = []
    var prefix = ""
    var pendingMarker: String?
    var isSeparationPending = false
    private var preformattedDepth = 0
    var lists: [ListState] = []

    struct ListState {
        var isOrdered: Bool
        var next: Int
        var markerWidth: Int
    }

    static let dropped: Set<String> = [
        "script", "style", "head", "title", "template", "noscript", "meta", "link", "base",
        "select", "textarea", "button", "input", "source", "track", "param",
    ]
    static let blocks: Set<String> = [
        "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "figure",
        "figcaption", "address", "center", "form", "fieldset", "legend", "details", "summary",
        "dl", "dt", "caption", "table",
    ]
    static let embeds: Set<String> = ["iframe", "embed", "video", "audio", "object"]
    static let bullets = ["• ", "◦ ", "▪ "]

    /// Adds a node and everything below it.
    mutating func add(_ node: HTMLNode) {
        switch node {
        case .text(let text):
            addText(text)
        case .element(let name, let attributes, let children):
            addElement(name, attributes, children)
        }
    }

    /// Ends the last block; call once after the last node.
    mutating func finish() {
        flush()
        if let marker = pendingMarker {
            emit(TextBlock(spans: [], firstPrefix: prefix + marker, prefix: prefix, layout: .flow, isSeparated: false))
        }
    }

    private mutating func addText(_ text: String) {
        guard preformattedDepth == 0 else {
            spans.append(StyledSpan(text, style: style))
            return
        }
        // Code keeps its words together (non-breaking spaces) unless it is wider than a line.
        let space: Character = style.contains(.code) ? "\u{00A0}" : " "
        var collapsed = ""
        var lastWasSpace = false
        for character in text {
            let isSpace = character == " " || character == "\n" || character == "\t"
                || character == "\r" || character == "\u{0C}"
            if isSpace {
                if !lastWasSpace { collapsed.append(space) }
            } else {
                collapsed.append(character)
            }
            lastWasSpace = isSpace
        }
        spans.append(StyledSpan(collapsed, style: style))
    }

    private mutating func addElement(_ name: String, _ attributes: [String: String], _ children: [HTMLNode]) {
        if Self.dropped.contains(name) { return }
        if Self.embeds.contains(name) {
            addEmbed(name, attributes, children)
            return
        }
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6", "th":
            if name == "th" { addInline(children, adding: .bold); spans.append(StyledSpan(" | ")); return }
            addBlock(children, adding: .bold)
        case "blockquote", "dd":
            separate()
            let saved = prefix
            prefix += name == "blockquote" ? "│ " : "    "
            addChildren(children)
            separate()
            prefix = saved
        case "ul", "ol", "menu":
            addList(ordered: name == "ol", attributes: attributes, children: children)
        case "li":
            addListItem(children)
        case "pre":
            separate()
            preformattedDepth += 1
            addInline(children, adding: .code)
            preformattedDepth -= 1
            flush(layout: .preformatted)
            isSeparationPending = true
        case "br":
            spans.append(StyledSpan("\n", style: style))
        case "hr":
            separate()
            spans.append(StyledSpan("――――――――"))
            separate()
        case "tr":
            flush()
            addChildren(children)
            trimCellSeparator()
            flush()
        case "td":
            addChildren(children)
            spans.append(StyledSpan(" | "))
        case "strong", "b":
            addInline(children, adding: .bold)
        case "em", "i", "cite", "dfn", "var":
            addInline(children, adding: .italic)
        case "code", "kbd", "samp", "tt":
            addInline(children, adding: .code)
        case "a":
            addLink(attributes["href"], children)
        case "img":
            let alt = attributes["alt"]?.trimmingCharacters(in: .whitespaces) ?? ""
            spans.append(StyledSpan(alt.isEmpty ? "[image]" : "[image: \(alt)]", style: style))
        default:
            if Self.blocks.contains(name) {
                addBlock(children, adding: [])
            } else {
                addChildren(children)
            }
        }
    }

    mutating func addChildren(_ children: [HTMLNode]) {
        for child in children { add(child) }
    }

    private mutating func addInline(_ children: [HTMLNode], adding added: TextStyle) {
        let saved = style
        style.formUnion(added)
        addChildren(children)
        style = saved
    }

    private mutating func addBlock(_ children: [HTMLNode], adding added: TextStyle) {
        separate()
        addInline(children, adding: added)
        separate()
    }

    private mutating func addLink(_ href: String?, _ children: [HTMLNode]) {
        let target = href?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let isFollowable = !target.isEmpty && !target.hasPrefix("#")
            && !target.lowercased().hasPrefix("javascript:")
        guard isFollowable else {
            addChildren(children)
            return
        }
        addInline(children, adding: .link)
        let number: Int
        if let known = links.firstIndex(of: target) {
            number = known + 1
        } else {
            links.append(target)
            number = links.count
        }
        spans.append(StyledSpan("\u{00A0}[\(number)]", style: style))
    }

    private mutating func addEmbed(_ name: String, _ attributes: [String: String], _ children: [HTMLNode]) {
        let sources = children.flatMap { $0.descendants(named: "source") }
        var url = attributes["src"] ?? attributes["data"] ?? ""
        if url.isEmpty, case .element(_, let sourceAttributes, _)? = sources.first {
            url = sourceAttributes["src"] ?? ""
        }
        let title = (attributes["title"] ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var line = name == "iframe" || name == "embed" || name == "object" ? "[Embedded" : "[\(name.capitalized)"
        line += title.isEmpty ? "" : ": \(title)"
        line += url.isEmpty ? "]" : (title.isEmpty ? ": " : " — ") + url + "]"
        // One line, never wrapped: a URL broken across lines cannot be copied or clicked.
        separate()
        spans.append(StyledSpan(line))
        flush(layout: .preformatted)
        isSeparationPending = true
    }

    /// Drops the separator after a row's last cell, and the white space between that cell and
    /// the row's end (Markdown's tables put a new line there).
    private mutating func trimCellSeparator() {
        while let last = spans.last, last.text != " | ", last.text.allSatisfy(\.isWhitespace) { spans.removeLast() }
        if spans.last?.text == " | " { spans.removeLast() }
    }

    /// Ends the current block and asks for a blank line before the next one.
    mutating func separate() {
        flush()
        isSeparationPending = true
    }

    mutating func flush(layout: TextBlock.Layout = .flow) {
        defer { spans = [] }
        let hasText = spans.contains { span in
            span.text.contains { !$0.isWhitespace || $0 == "\u{00A0}" || (layout == .preformatted && $0 != "\n") }
        }
        guard hasText else { return }
        let first: String
        if let marker = pendingMarker {
            let outer = String(prefix.dropLast(DisplayWidth.of(marker)))
            first = outer + marker
            pendingMarker = nil
        } else {
            first = prefix
        }
        emit(TextBlock(spans: spans, firstPrefix: first, prefix: prefix, layout: layout, isSeparated: isSeparationPending))
        isSeparationPending = false
    }

    mutating func emit(_ block: TextBlock) {
        var block = block
        block.isSeparated = block.isSeparated && !blocks.isEmpty
        blocks.append(block)
    }
}
