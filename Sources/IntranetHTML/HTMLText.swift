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

    /// `text` with every run of white space one space, none at either end.
    static func collapsingWhiteSpace(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.isASCII ? (scalar == " " || (0x09...0x0D).contains(scalar.value)) : scalar.properties.isWhitespace
            if isSpace {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace {
                output.append(" ")
                pendingSpace = false
            }
            output.append(scalar)
        }
        return String(output)
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
