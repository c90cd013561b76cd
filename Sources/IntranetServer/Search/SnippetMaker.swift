import IntranetAPI

/// Makes the short text that shows why a result matched: a window of plain text around the
/// first word the query found, with the words it found marked.
enum SnippetMaker {
    /// About how many characters a snippet holds.
    static let length = 160
    /// About how many characters stand before the first match.
    static let lead = 40

    /// The marks of `query`'s words in `text`: every whole word equal to one of them, or
    /// beginning with a word being typed, in Unicode code points (overlapping marks merged).
    /// With `reach`, only those beginning less than `reach` code points after the first: all a
    /// snippet can show (a body's words past it are not read).
    static func marks(in text: String, for query: SearchQuery, reach: Int? = nil) -> [(start: Int, end: Int)] {
        let wanted = query.markedWords
        var marks: [(start: Int, end: Int)] = []
        SearchText.forEachWord(in: text) { word in
            // Past the reach, and past the last mark (a word touching it still extends it).
            if let reach, let first = marks.first, let last = marks.last, word.start >= first.start + reach, word.start > last.end {
                return false
            }
            // Bytes, as the index compares words (and faster than comparing characters).
            guard wanted.contains(where: { $0.prefix ? word.folded.utf8.starts(with: $0.word.utf8) : word.folded.utf8.elementsEqual($0.word.utf8) }) else {
                return true
            }
            if let last = marks.last, word.start <= last.end {
                marks[marks.count - 1].end = max(last.end, word.end)
            } else {
                marks.append((word.start, word.end))
            }
            return true
        }
        return marks
    }

    /// A snippet of `text` (one line of plain text) around the first of `query`'s words in
    /// it, or `nil` when none is there.
    static func snippet(of text: String, for query: SearchQuery) -> SearchSnippet? {
        let marks = marks(in: text, for: query, reach: length)
        guard let first = marks.first else { return nil }
        // The window ends at most `length` past its start, which is not after the first mark;
        // one more scalar tells whether the text goes on.
        let scalars = Array(text.unicodeScalars.prefix(max(first.end, first.start + length) + 1))
        var start = max(0, first.start - lead)
        // Begin at a word: after the space before `start`.
        if start > 0 {
            if let space = scalars[start..<first.start].firstIndex(where: { $0 == " " }) {
                start = space + 1
            } else {
                start = first.start
            }
        }
        var end = min(scalars.count, start + length)
        if end < scalars.count, first.end < end, let space = scalars[first.end..<end].lastIndex(where: { $0 == " " }) {
            end = space
        }
        end = max(end, min(scalars.count, first.end))
        let prefix = start > 0 ? "…" : ""
        let suffix = end < scalars.count ? "…" : ""
        var window = String.UnicodeScalarView()
        window.append(contentsOf: scalars[start..<end])
        let shift = prefix.unicodeScalars.count - start
        let shown = marks.filter { $0.start >= start && $0.end <= end }.map { [$0.start + shift, $0.end - $0.start] }
        return SearchSnippet(text: prefix + String(window) + suffix, matches: shown)
    }

    /// A snippet of short fields (a person's name, job title, …): the fields holding a match,
    /// joined by " · ", with every match marked; `nil` when none holds one.
    static func snippet(ofFields fields: [String], for query: SearchQuery) -> SearchSnippet? {
        var text = ""
        var matches: [[Int]] = []
        for field in fields where !field.isEmpty {
            let marks = marks(in: field, for: query)
            guard !marks.isEmpty else { continue }
            if !text.isEmpty { text += " · " }
            let offset = text.unicodeScalars.count
            matches += marks.map { [$0.start + offset, $0.end - $0.start] }
            text += field
        }
        return matches.isEmpty ? nil : SearchSnippet(text: text, matches: matches)
    }
}
