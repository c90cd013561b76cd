/// Makes an HTML body safe to put in a web page: the one set of rules every announcement body
/// goes through before it is stored, whether an editor wrote it or it was imported.
///
/// The body is parsed (libxml2's tolerant HTML parser, as a fragment) and written again from
/// the tree, keeping only what the allowlist names:
///
/// - **Kept elements**: text structure (`p`, `br`, `hr`, `h1`–`h6`, `blockquote`, `pre`, `div`,
///   `span`, `section`, `article`, `aside`, `header`, `footer`, `address`, `details`,
///   `summary`, `figure`, `figcaption`), inline text (`a`, `abbr`, `b`, `strong`, `i`, `em`, `u`,
///   `s`, `del`, `ins`, `mark`, `small`, `sub`, `sup`, `q`, `cite`, `dfn`, `code`, `kbd`, `samp`,
///   `var`, `time`, `bdi`, `bdo`, `wbr`, `ruby`, `rt`, `rp`), lists (`ul`, `ol`, `li`, `dl`, `dt`,
///   `dd`), tables (`table`, `caption`, `colgroup`, `col`, `thead`, `tbody`, `tfoot`, `tr`, `th`,
///   `td`) and media (`img`, `video`, `audio`, `source`).
/// - **Removed with everything inside**: `script`, `style`, `template`, `noscript`, `object`,
///   `embed`, `applet`, `frame`, `frameset`, forms and their controls, document-head elements
///   (`head`, `title`, `meta`, `link`, `base`), `svg`, `math`, `canvas`, `dialog`, and `iframe`
///   unless its `https` source is on a host in ``embedHosts``.
/// - **Any other element** is unwrapped: its content stays, the tag goes.
/// - **Attributes**: `title`, `lang` and `dir` anywhere, plus per element `href` (`a`), `src`,
///   `alt`, `width`, `height` (`img`), `cite`, `datetime`, `colspan`, `rowspan`, `scope`,
///   `start`, `reversed`, `type` (`ol`, `source`), `value` (`li`), `span`, `poster`; media
///   always get `controls`. No event handlers (`on…`), `style`, `class`, `id` or anything else.
///   Numeric attributes must be whole numbers, enumerated ones one of their values.
/// - **URLs** (`href`, `src`, `cite`, `poster`): relative URLs, `http:` and `https:`; links may
///   also be `mailto:` and `tel:`. Any other scheme (`javascript:`, `data:`, `vbscript:`,
///   `file:`…), however it is spelt (case, entities, tabs or newlines inside), drops the
///   attribute.
/// - Comments (WordPress's `<!-- wp:… -->` block markers among them) and processing
///   instructions are dropped; text is escaped, so what is written parses back to the same
///   tree. Sanitising a sanitised body changes nothing.
public struct HTMLSanitizer: Sendable {
    /// Hosts whose `https` pages may be embedded with `<iframe>` (lower-case, exact).
    public var embedHosts: Set<String>

    /// A sanitiser; `embedHosts` empty (the default) removes every `iframe`.
    public init(embedHosts: Set<String> = []) {
        self.embedHosts = Set(embedHosts.map { $0.lowercased() })
    }

    /// What ``sanitize(_:)`` made of a body.
    public struct Result: Sendable, Equatable {
        /// The safe HTML.
        public var html: String
        /// How many elements and attributes were removed (0: only the spelling may differ).
        public var removals: Int
    }

    /// The body made safe, and how much was removed from it.
    public func sanitize(_ html: String) -> Result {
        var writer = Writer(sanitizer: self)
        for node in HTMLParser.parseFragment(html) {
            writer.write(node)
        }
        return Result(html: writer.output, removals: writer.removals)
    }

    // MARK: The allowlist

    static let removedWithContent: Set<String> = [
        "script", "style", "template", "noscript", "object", "embed", "applet", "frame", "frameset", "iframe",
        "form", "input", "button", "select", "textarea", "option", "optgroup", "datalist", "output", "fieldset",
        "head", "title", "meta", "link", "base", "svg", "math", "canvas", "dialog", "slot", "portal",
    ]

    static let voidElements: Set<String> = ["br", "hr", "img", "wbr", "col", "source"]

    /// Kept elements and the attributes each may carry besides the global ones.
    static let elements: [String: Set<String>] = {
        var table: [String: Set<String>] = [:]
        let plain = [
            "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "div", "span", "section", "article", "aside",
            "header", "footer", "address", "details", "summary", "figure", "figcaption", "b", "strong", "i", "em", "u", "s",
            "mark", "small", "sub", "sup", "cite", "dfn", "code", "kbd", "samp", "var", "bdi", "bdo", "wbr", "ruby",
            "rt", "rp", "ul", "dl", "dt", "dd", "caption", "thead", "tbody", "tfoot", "tr", "abbr",
        ]
        for name in plain { table[name] = [] }
        table["a"] = ["href"]
        table["blockquote"] = ["cite"]
        table["q"] = ["cite"]
        table["del"] = ["cite", "datetime"]
        table["ins"] = ["cite", "datetime"]
        table["time"] = ["datetime"]
        table["ol"] = ["start", "reversed", "type"]
        table["li"] = ["value"]
        table["table"] = []
        table["colgroup"] = ["span"]
        table["col"] = ["span"]
        table["th"] = ["colspan", "rowspan", "scope"]
        table["td"] = ["colspan", "rowspan"]
        table["img"] = ["src", "alt", "width", "height"]
        table["video"] = ["src", "poster", "width", "height"]
        table["audio"] = ["src"]
        table["source"] = ["src", "type"]
        table["iframe"] = ["src", "width", "height", "allowfullscreen"]
        return table
    }()

    static let globalAttributes: Set<String> = ["title", "lang", "dir"]
    static let urlAttributes: Set<String> = ["href", "src", "cite", "poster"]
    static let numberAttributes: Set<String> = ["width", "height", "colspan", "rowspan", "start", "value", "span"]
    static let booleanAttributes: Set<String> = ["reversed", "allowfullscreen"]
    /// Attributes the sanitiser writes itself: media always show their controls, and an
    /// embedded page runs sandboxed.
    static let imposedAttributes: [String: Set<String>] = ["video": ["controls"], "audio": ["controls"], "iframe": ["sandbox"]]

    /// The value an attribute keeps, or `nil` when it must go.
    func allowedValue(_ value: String, of attribute: String, on element: String) -> String? {
        if Self.urlAttributes.contains(attribute) {
            return Self.isSafeURL(value, linkSchemes: attribute == "href") ? value : nil
        }
        if Self.numberAttributes.contains(attribute) {
            return !value.isEmpty && value.count <= 6 && value.allSatisfy(\.isASCIIDigit) ? value : nil
        }
        if Self.booleanAttributes.contains(attribute) {
            return ""
        }
        switch attribute {
        case "dir": return ["ltr", "rtl", "auto"].contains(value.lowercased()) ? value.lowercased() : nil
        case "scope": return ["row", "col", "rowgroup", "colgroup"].contains(value.lowercased()) ? value.lowercased() : nil
        case "type" where element == "ol": return ["1", "a", "A", "i", "I"].contains(value) ? value : nil
        case "type": return value.count <= 100 && value.allSatisfy { $0.isLetter || $0.isNumber || "/+-.;= \"".contains($0) } ? value : nil
        default: return value
        }
    }

    /// Whether `url` is relative or of a scheme a reader may follow, as a browser would read
    /// it: ASCII whitespace and control characters are ignored, case does not matter.
    static func isSafeURL(_ url: String, linkSchemes: Bool) -> Bool {
        let cleaned = url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }
        var scheme = ""
        for scalar in cleaned {
            if scalar == ":" {
                let allowed = linkSchemes ? ["http", "https", "mailto", "tel"] : ["http", "https"]
                return allowed.contains(scheme.lowercased())
            }
            // A "/", "?" or "#" before any ":" makes it a relative URL.
            if scalar == "/" || scalar == "?" || scalar == "#" { return true }
            scheme.unicodeScalars.append(scalar)
        }
        return true
    }

    /// Whether an `iframe` with this source may stay.
    func isAllowedEmbed(_ source: String?) -> Bool {
        guard let source, !embedHosts.isEmpty else { return false }
        let cleaned = String(String.UnicodeScalarView(source.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }))
        guard cleaned.lowercased().hasPrefix("https://") else { return false }
        let afterScheme = cleaned.dropFirst("https://".count)
        let authority = afterScheme.prefix { !"/?#\\".contains($0) }
        guard !authority.contains("@") else { return false }
        let host = authority.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        return embedHosts.contains(host)
    }
}

/// Writes the kept part of a tree as HTML, counting what it leaves out.
extension HTMLSanitizer {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped: safe as an element's text and inside a
    /// quoted attribute.
    public static func escape(_ text: String) -> String {
        Writer.escapeAttribute(text)
    }
}

private struct Writer {
    let sanitizer: HTMLSanitizer
    var output = ""
    var removals = 0

    mutating func write(_ node: HTMLNode) {
        switch node {
        case .text(let text):
            output += Self.escapeText(text)
        case .element(let name, let attributes, let children):
            let keepsIframe = name == "iframe" && sanitizer.isAllowedEmbed(attributes["src"])
            if HTMLSanitizer.removedWithContent.contains(name) && !keepsIframe {
                removals += 1
                return
            }
            guard let allowed = HTMLSanitizer.elements[name] else {
                removals += 1
                children.forEach { write($0) }
                return
            }
            output += "<" + name
            for (attribute, value) in attributes.sorted(by: { $0.key < $1.key }) {
                // Written below whatever the body said.
                if HTMLSanitizer.imposedAttributes[name]?.contains(attribute) == true { continue }
                guard allowed.contains(attribute) || HTMLSanitizer.globalAttributes.contains(attribute),
                      let kept = sanitizer.allowedValue(value, of: attribute, on: name)
                else {
                    removals += 1
                    continue
                }
                output += kept.isEmpty && HTMLSanitizer.booleanAttributes.contains(attribute)
                    ? " \(attribute)"
                    : " \(attribute)=\"\(Self.escapeAttribute(kept))\""
            }
            if name == "video" || name == "audio" { output += " controls" }
            if name == "iframe" { output += " sandbox=\"allow-scripts allow-same-origin allow-popups\"" }
            output += ">"
            if HTMLSanitizer.voidElements.contains(name) {
                removals += children.isEmpty ? 0 : 1
                return
            }
            children.forEach { write($0) }
            output += "</\(name)>"
        }
    }

    static func escapeText(_ text: String) -> String {
        escape(text, quotes: false)
    }

    static func escapeAttribute(_ value: String) -> String {
        escape(value, quotes: true)
    }

    /// Escapes by Unicode scalar, not by character: a `"` followed by a combining mark is one
    /// character, which a comparison of characters would let through to end an attribute.
    private static func escape(_ text: String, quotes: Bool) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"" where quotes: escaped.append(contentsOf: "&quot;".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
