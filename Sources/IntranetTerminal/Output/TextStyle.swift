/// How a run of text is emphasised: bold, italic, code or link text, in any combination.
///
/// On a terminal each style becomes an ANSI SGR sequence; in plain output styles vanish and
/// only the text remains.
public struct TextStyle: OptionSet, Sendable, Hashable {
    /// The style's bits.
    public let rawValue: Int

    /// Creates a style from its bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `<strong>`, `<b>`, headings, table headers.
    public static let bold = TextStyle(rawValue: 1 << 0)
    /// `<em>`, `<i>`, `<cite>`.
    public static let italic = TextStyle(rawValue: 1 << 1)
    /// `<code>`, `<kbd>`, `<samp>`, `<pre>`.
    public static let code = TextStyle(rawValue: 1 << 2)
    /// The text of a link (`<a href>`).
    public static let link = TextStyle(rawValue: 1 << 3)
    /// Secondary information such as dates.
    public static let dim = TextStyle(rawValue: 1 << 4)

    /// The ANSI SGR parameters for this style, e.g. `"1;3"`; empty for no style.
    var sgrParameters: String {
        var codes: [String] = []
        if contains(.bold) { codes.append("1") }
        if contains(.dim) { codes.append("2") }
        if contains(.italic) { codes.append("3") }
        if contains(.link) { codes.append("4") }
        if contains(.code) { codes.append("36") }
        return codes.joined(separator: ";")
    }

    /// `text` wrapped in this style's escape sequences when `isStyled`, else `text` itself.
    ///
    /// - Parameters:
    ///   - text: the text to show.
    ///   - isStyled: whether the output is a terminal that shows ANSI styles.
    public func apply(to text: String, isStyled: Bool) -> String {
        let parameters = sgrParameters
        guard isStyled, !parameters.isEmpty, !text.isEmpty else { return text }
        return "\u{1B}[\(parameters)m\(text)\u{1B}[0m"
    }
}

/// A run of text in one style.
public struct StyledSpan: Sendable, Equatable {
    /// The text.
    public var text: String
    /// Its style.
    public var style: TextStyle

    /// Creates a span.
    public init(_ text: String, style: TextStyle = []) {
        self.text = text
        self.style = style
    }
}
