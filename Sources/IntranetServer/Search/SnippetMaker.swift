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
    /// snippet can show (a text's words past it are not read).
    static func marks(in text: String, for query: SearchQuery, reach: Int? = nil) -> [(start: Int, end: Int)] {
        let wanted = wantedWords(query)
        var marks: [(start: Int, end: Int)] = []
        SearchText.forEachFoldedWord(in: text) { word, start, stop in
            if isPastReach(start, of: marks, reach) { return false }
            if isWanted(word, wanted) { add(start, stop, to: &marks) }
            return true
        }
        return marks
    }

    /// The same marks among `words`, a text's words folded once: nothing is folded again.
    static func marks(in words: SearchText.FoldedWords, for query: SearchQuery, reach: Int? = nil) -> [(start: Int, end: Int)] {
        let wanted = wantedWords(query)
        var marks: [(start: Int, end: Int)] = []
        words.bytes.withUnsafeBufferPointer { bytes in
            var begin = 0
            for index in 0..<words.count {
                let end = Int(words.ends[index])
                defer { begin = end }
                let start = Int(words.starts[index])
                if isPastReach(start, of: marks, reach) { break }
                if isWanted(bytes[begin..<end], wanted) { add(start, Int(words.stops[index]), to: &marks) }
            }
        }
        return marks
    }

    /// The words a query marks, as bytes (as the index compares words), each whether it is
    /// being typed (a beginning).
    private static func wantedWords(_ query: SearchQuery) -> [(bytes: [UInt8], prefix: Bool)] {
        query.markedWords.map { (Array($0.word.utf8), $0.prefix) }
    }

    private static func isWanted(_ word: some Collection<UInt8>, _ wanted: [(bytes: [UInt8], prefix: Bool)]) -> Bool {
        wanted.contains { $0.prefix ? word.starts(with: $0.bytes) : word.elementsEqual($0.bytes) }
    }

    /// Whether a word at `start` is past the reach: past `reach` after the first mark, and past
    /// the last (a word touching it still extends it).
    private static func isPastReach(_ start: Int, of marks: [(start: Int, end: Int)], _ reach: Int?) -> Bool {
        guard let reach, let first = marks.first, let last = marks.last else { return false }
        return start >= first.start + reach && start > last.end
    }

    /// Adds a word's mark, merged with the last when they touch.
    private static func add(_ start: Int, _ stop: Int, to marks: inout [(start: Int, end: Int)]) {
        if let last = marks.last, start <= last.end {
            marks[marks.count - 1].end = max(last.end, stop)
        } else {
            marks.append((start, stop))
        }
    }

    /// A snippet of `text` (one line of plain text) around the first of `query`'s words in
    /// it, or `nil` when none is there; from `words`, the text's words folded, when it is
    /// given (``PlainBodies`` keeps them for bodies found more than once).
    static func snippet(of text: String, words: SearchText.FoldedWords? = nil, for query: SearchQuery) -> SearchSnippet? {
        let marks: [(start: Int, end: Int)] =
            if let words { Self.marks(in: words, for: query, reach: length) } else { Self.marks(in: text, for: query, reach: length) }
        guard let first = marks.first else { return nil }
        // Only the scalars from `lead` before the first mark are looked at (those before are
        // only stepped over): the window ends at most `length` past its start, which is not
        // after the first mark; one more scalar tells whether the text goes on. `places[i]` is
        // where the text's scalar `skipped + i` lies, and the last place ends them; the window
        // is then copied from the text as bytes (appending it scalar by scalar was a twentieth
        // of a search).
        let skipped = max(0, first.start - lead)
        let all = text.unicodeScalars
        var place = all.index(all.startIndex, offsetBy: skipped, limitedBy: all.endIndex) ?? all.endIndex
        let wanted = max(first.end, first.start + length) + 1 - skipped
        var places: [String.Index] = []
        places.reserveCapacity(wanted + 1)
        while places.count < wanted, place < all.endIndex {
            places.append(place)
            place = all.index(after: place)
        }
        let count = places.count
        places.append(place)
        func isSpace(_ scalar: Int) -> Bool { all[places[scalar]] == " " }
        let firstStart = first.start - skipped
        let firstEnd = first.end - skipped
        var start = 0
        // Begin at a word: after the space before the window's first scalar.
        if skipped > 0 {
            if let space = (0..<firstStart).first(where: isSpace) {
                start = space + 1
            } else {
                start = firstStart
            }
        }
        var end = min(count, start + length)
        if end < count, firstEnd < end, let space = (firstEnd..<end).last(where: isSpace) {
            end = space
        }
        end = max(end, min(count, firstEnd))
        let prefix = skipped + start > 0 ? "…" : ""
        let suffix = end < count ? "…" : ""
        let window = String(all[places[start]..<places[end]])
        let shift = prefix.unicodeScalars.count - start - skipped
        let shown = marks.filter { $0.start >= start + skipped && $0.end <= end + skipped }.map { [$0.start + shift, $0.end - $0.start] }
        return SearchSnippet(text: prefix + window + suffix, matches: shown)
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
