import IntranetHTML

/// Renders an announcement's HTML body as readable terminal text.
///
/// Paragraphs are wrapped to the width; `<strong>`/`<em>` become bold/italic when styled;
/// lists become bullets (ordered lists numbered, nested lists indented); `<code>` keeps its
/// text; entities are decoded; links read `text [1]` with the numbered targets listed
/// underneath; an `<iframe>` becomes a line naming the embedded URL; `<script>` and
/// `<style>` vanish. No tag is ever printed, whatever the input.
///
/// ```swift
/// let text = HTMLRenderer(width: 60, isStyled: false).render("<p>Hi <a href=\"https://x.example\">there</a></p>")
/// // "Hi there [1]\n\n[1] https://x.example"
/// ```
public struct HTMLRenderer: Sendable {
    /// The columns available per line.
    public var width: Int
    /// Whether to emit ANSI escape sequences for bold, italic, code and links.
    public var isStyled: Bool

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - width: the terminal width in columns (at least 10 is used).
    ///   - isStyled: whether the output is a terminal that shows ANSI styles.
    public init(width: Int, isStyled: Bool) {
        self.width = max(10, width)
        self.isStyled = isStyled
    }

    /// The rendered body: its lines, then the numbered link targets.
    public struct Rendering: Sendable, Equatable {
        /// The body's lines, without trailing spaces.
        public var lines: [String]
        /// The link targets, the first one numbered `[1]`.
        public var links: [String]

        /// Whether the body showed no text at all.
        public var isEmpty: Bool { lines.allSatisfy(\.isEmpty) && links.isEmpty }

        /// The body lines, then a blank line and `[n] target` per link, joined by newlines.
        public var text: String {
            var all = lines
            if !links.isEmpty {
                all.append("")
                all += links.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
            }
            return all.joined(separator: "\n")
        }
    }

    /// Renders an HTML fragment.
    ///
    /// - Parameter html: the body as stored by the server; may be malformed.
    /// - Returns: the lines and links; empty when the body has no visible text.
    public func rendering(of html: String) -> Rendering {
        var builder = BlockBuilder()
        for node in HTMLParser.parseBody(html) {
            builder.add(node)
        }
        builder.finish()
        let lines = BlockLayout(width: width, isStyled: isStyled).lines(for: builder.blocks)
        return Rendering(lines: lines, links: builder.links)
    }

    /// Renders an HTML fragment as one string (see ``Rendering/text``).
    ///
    /// - Parameter html: the body as stored by the server; may be malformed.
    public func render(_ html: String) -> String {
        rendering(of: html).text
    }
}
