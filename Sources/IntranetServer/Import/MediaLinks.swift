import IntranetHTML

/// The URLs an HTML body points to files with — `src`, `srcset`, `href` and `poster` — read
/// from a post as exported, and rewritten in a body as stored.
enum MediaLinks {
    /// Attributes that hold one URL.
    static let urlAttributes: Set<String> = ["src", "href", "poster"]

    /// Every URL in `html`'s link and media attributes (each candidate of a `srcset`), in
    /// document order.
    static func urls(in html: String) -> [String] {
        var found: [String] = []
        func visit(_ node: HTMLNode) {
            guard case .element(_, let attributes, let children) = node else { return }
            for name in ["src", "srcset", "href", "poster"] {
                guard let value = attributes[name] else { continue }
                found += name == "srcset" ? candidates(ofSourceSet: value) : [value]
            }
            children.forEach(visit)
        }
        HTMLParser.parseFragment(html).forEach(visit)
        return found
    }

    /// The URLs of a `srcset` (`a.jpg 300w, b.jpg 2x`).
    static func candidates(ofSourceSet value: String) -> [String] {
        value.split(separator: ",").compactMap { candidate in
            candidate.split(whereSeparator: { $0.isWhitespace }).first.map(String.init)
        }
    }

    /// `html` with the URL of every `src`, `href`, `poster` and `srcset` candidate replaced by
    /// what `replacement` gives (`nil`: kept as it is); everything else is kept byte for byte.
    ///
    /// `html` is a body as the sanitiser writes it (every body stored is): inside a tag, each
    /// attribute is ` name="value"` with `&`, `<`, `>` and `"` escaped, and outside tags `<` and
    /// `>` are always escaped. So a tag starts at each `<` and ends at the next `>`, and what
    /// this writes back (escaped the same way) keeps the body as safe as the sanitiser made it.
    static func rewriting(_ html: String, _ replacement: (String) -> String?) -> String {
        var output = ""
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            output += rest[..<open]
            let close = rest[open...].firstIndex(of: ">") ?? rest.endIndex
            output += rewritingTag(rest[open..<close], replacement)
            rest = rest[close...]
        }
        output += rest
        return output
    }

    /// One tag (from `<` to before `>`) with its URL attributes' values replaced.
    private static func rewritingTag(_ tag: Substring, _ replacement: (String) -> String?) -> String {
        var output = ""
        var rest = tag
        while let quote = rest.range(of: "=\"") {
            let nameStart = rest[..<quote.lowerBound].lastIndex(of: " ").map { rest.index(after: $0) } ?? quote.lowerBound
            let name = rest[nameStart..<quote.lowerBound]
            let valueEnd = rest[quote.upperBound...].firstIndex(of: "\"") ?? rest.endIndex
            output += rest[..<quote.upperBound]
            let value = rest[quote.upperBound..<valueEnd]
            if urlAttributes.contains(String(name)) {
                output += replaced(value, replacement)
            } else if name == "srcset" {
                output += value.split(separator: ",", omittingEmptySubsequences: false).map { candidate in
                    let leading = candidate.prefix { $0.isWhitespace }
                    let url = candidate.dropFirst(leading.count).prefix { !$0.isWhitespace }
                    return leading + replaced(url, replacement) + candidate.dropFirst(leading.count + url.count)
                }.joined(separator: ",")
            } else {
                output += value
            }
            rest = rest[valueEnd...]
        }
        return output + rest
    }

    private static func replaced(_ escapedValue: Substring, _ replacement: (String) -> String?) -> String {
        guard let new = replacement(unescaped(escapedValue)) else { return String(escapedValue) }
        return HTMLSanitizer.escape(new)
    }

    /// An attribute value as the sanitiser escaped it, unescaped.
    private static func unescaped(_ value: Substring) -> String {
        guard value.contains("&") else { return String(value) }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
