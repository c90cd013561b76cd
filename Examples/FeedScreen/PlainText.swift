/// HTML bodies as the plain text a small demo screen shows: tags dropped (block elements
/// leave a space), the common entities decoded, white space folded. (The terminal client
/// renders HTML properly; this example keeps to the SDK.)
enum PlainText {
    private static let blockTags: Set<String> = [
        "p", "br", "li", "ul", "ol", "div", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "blockquote", "pre",
    ]

    static func of(_ html: String?) -> String {
        guard let html else { return "" }
        var text = ""
        var tag: String?
        for character in html {
            switch (character, tag) {
            case ("<", nil): tag = ""
            case (">", let name?):
                let bare = name.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                if blockTags.contains(bare) { text.append(" ") }
                tag = nil
            case (_, let name?): tag = name + String(character)
            default: text.append(character)
            }
        }
        let decoded = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")]
            .reduce(text) { $0.replacingAll($1.0, with: $1.1) }
        return decoded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
