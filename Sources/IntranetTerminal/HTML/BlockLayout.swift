/// Lays ``TextBlock``s out as terminal lines: wraps flowing text at spaces to the width,
/// breaks words longer than a line, keeps preformatted lines, and applies styles.
struct BlockLayout {
    /// The columns available, prefixes included.
    var width: Int
    /// Whether to emit ANSI styles.
    var isStyled: Bool

    /// A word: fragments in possibly different styles with no break opportunity between them.
    private struct Word {
        var fragments: [StyledSpan] = []
        var width = 0
    }

    private enum Token {
        case word(Word)
        case lineBreak
    }

    /// The lines of all blocks, a blank line between separated blocks, trailing spaces removed.
    func lines(for blocks: [TextBlock]) -> [String] {
        var lines: [String] = []
        for block in blocks {
            if block.isSeparated { lines.append("") }
            lines += self.lines(for: block)
        }
        return lines
    }

    private func lines(for block: TextBlock) -> [String] {
        switch block.layout {
        case .preformatted:
            var text = block.spans.map(\.text).joined()
            if text.hasPrefix("\n") { text.removeFirst() }
            while text.hasSuffix("\n") { text.removeLast() }
            let style = block.spans.first?.style ?? .code
            return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
                trimmed((index == 0 ? block.firstPrefix : block.prefix) + style.apply(to: String(line), isStyled: isStyled))
            }
        case .flow:
            return wrap(block)
        }
    }

    private func wrap(_ block: TextBlock) -> [String] {
        var lines: [String] = []
        var current: [Word] = []
        var used = 0
        func available() -> Int { max(1, width - DisplayWidth.of(lines.isEmpty ? block.firstPrefix : block.prefix)) }
        func endLine() {
            let prefix = lines.isEmpty ? block.firstPrefix : block.prefix
            lines.append(trimmed(prefix + current.map(render).joined(separator: " ")))
            current = []
            used = 0
        }
        for token in tokens(block.spans) {
            guard case .word(var word) = token else {
                endLine()
                continue
            }
            if !current.isEmpty, used + 1 + word.width > available() {
                endLine()
            }
            while current.isEmpty, word.width > available() {
                let (head, rest) = split(word, toWidth: available())
                current = [head]
                endLine()
                word = rest
            }
            used += (current.isEmpty ? 0 : 1) + word.width
            current.append(word)
        }
        if !current.isEmpty || lines.isEmpty { endLine() }
        return lines
    }

    private func tokens(_ spans: [StyledSpan]) -> [Token] {
        var tokens: [Token] = []
        var word = Word()
        func endWord() {
            if !word.fragments.isEmpty { tokens.append(.word(word)) }
            word = Word()
        }
        for span in spans {
            var piece = ""
            for character in span.text {
                if character == " " || character == "\n" {
                    if !piece.isEmpty { word.fragments.append(StyledSpan(piece, style: span.style)) }
                    piece = ""
                    endWord()
                    if character == "\n" { tokens.append(.lineBreak) }
                } else {
                    piece.append(character)
                    word.width += DisplayWidth.of(character)
                }
            }
            if !piece.isEmpty { word.fragments.append(StyledSpan(piece, style: span.style)) }
        }
        endWord()
        return tokens
    }

    /// Splits a word that is wider than a line: as much as fits, and the rest.
    private func split(_ word: Word, toWidth limit: Int) -> (Word, Word) {
        var head = Word()
        var rest = Word()
        for fragment in word.fragments {
            var headText = ""
            var restText = ""
            for character in fragment.text {
                let columns = DisplayWidth.of(character)
                if rest.fragments.isEmpty, restText.isEmpty, head.width + columns <= limit || head.width == 0 {
                    headText.append(character)
                    head.width += columns
                } else {
                    restText.append(character)
                    rest.width += columns
                }
            }
            if !headText.isEmpty { head.fragments.append(StyledSpan(headText, style: fragment.style)) }
            if !restText.isEmpty { rest.fragments.append(StyledSpan(restText, style: fragment.style)) }
        }
        return (head, rest)
    }

    private func render(_ word: Word) -> String {
        word.fragments.map { fragment in
            let text = fragment.text.replacingOccurrences(of: "\u{00A0}", with: " ")
            return fragment.style.apply(to: text, isStyled: isStyled)
        }.joined()
    }

    private func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
