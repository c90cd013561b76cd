/// A block of rendered text before it is wrapped: a paragraph, a list item, a heading, a
/// preformatted section or a single line such as an embedded video.
struct TextBlock: Sendable, Equatable {
    /// How the block's lines are laid out.
    enum Layout: Sendable, Equatable {
        /// Wrapped to the width at spaces; `\n` in a span forces a line break.
        case flow
        /// Kept line for line, never wrapped (`<pre>`).
        case preformatted
    }

    /// The block's text.
    var spans: [StyledSpan]
    /// Put before the first line (indentation, a quote bar and a list marker).
    var firstPrefix: String
    /// Put before every following line.
    var prefix: String
    /// Wrapped or kept as is.
    var layout: Layout
    /// Whether a blank line separates this block from the one before.
    var isSeparated: Bool
}
