/// The text of HTML as people read it, for excerpts and search.
public enum HTMLText {
    /// Elements that start a line: their text is kept apart from the text around them.
    private static let blocks: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
        "table", "tr", "td", "th", "figure", "figcaption", "hr", "dt", "dd",
    ]

    /// The text of an HTML fragment as one line: the text of blocks apart, every run of white
    /// space one space, no space at either end.
    ///
    /// - Parameter limit: about how many characters to read before stopping (the text may end
    ///   a little past it, at the end of a text node).
    public static func plain(_ html: String, limit: Int = .max) -> String {
        var text = ""
        var count = 0
        for node in HTMLParser.parseFragment(html) where count < limit {
            append(node, to: &text, count: &count, limit: limit)
        }
        return collapsingWhiteSpace(text)
    }

    /// `text` with every run of white space one space, none at either end. Writes UTF-8 bytes
    /// (appending scalars to a `String` one at a time took a fifth of indexing a body).
    static func collapsingWhiteSpace(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isWhiteSpace(scalar) {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            if scalar.isASCII {
                output.append(UInt8(scalar.value))
            } else {
                output.append(contentsOf: scalar.utf8)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `scalar` has Unicode's White_Space property: the list is short and fixed, and
    /// looking it up in the scalar's properties cost a tenth of a search of Chinese text.
    static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    private static func append(_ node: HTMLNode, to text: inout String, count: inout Int, limit: Int) {
        switch node {
        case .text(let content):
            text += content
            count += content.count
        case .element(let name, _, let children):
            let isBlock = blocks.contains(name)
            if isBlock { text += " " }
            for child in children where count < limit {
                append(child, to: &text, count: &count, limit: limit)
            }
            if isBlock { text += " " }
        }
    }
}
