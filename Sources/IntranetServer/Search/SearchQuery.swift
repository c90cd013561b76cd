import Foundation

/// What `q` asks for: every term must match, in any order. A word matches a whole word; the
/// last word, unless the text ends in a space or a quote, also the beginning of one (typing
/// "secu" finds Security). A quoted phrase, and a run of Chinese or Japanese characters, match
/// their words one after the other.
struct SearchQuery: Equatable, Sendable {
    /// One thing that must match.
    enum Term: Equatable, Sendable {
        /// A whole word, or with `prefix` any word beginning so.
        case word(String, prefix: Bool)
        /// Words one right after the other.
        case phrase([String])
    }

    /// The terms, in the order typed.
    var terms: [Term]

    /// The longest query, in Unicode code points.
    static let maxLength = 200
    /// The most terms a query may hold.
    static let maxTerms = 12

    /// Reads `q`.
    ///
    /// - Returns: the query; its terms are empty when `q` holds no word at all (only
    ///   punctuation), which finds nothing.
    /// - Throws: ``APIError`` 400 when `q` is missing or blank, too long, holds control
    ///   characters, or more than ``maxTerms`` terms.
    static func parse(_ q: String?) throws -> SearchQuery {
        guard let q, !q.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw APIError.badRequest("Give the text to search for in q (for example ?q=parental+leave).")
        }
        guard q.unicodeScalars.count <= maxLength else {
            throw APIError.badRequest("q must be at most \(maxLength) characters (Unicode code points); it has \(q.unicodeScalars.count).")
        }
        guard !q.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError.badRequest("q must not contain control characters.")
        }
        var terms: [Term] = []
        // Quotes cut the text into parts: outside quotes, inside, outside, … An unbalanced
        // quote's phrase ends where the text does.
        let parts = q.split(separator: "\"", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let words = SearchText.words(String(part))
            if index % 2 == 1 {
                if words.count == 1 {
                    terms.append(.word(words[0].folded, prefix: false))
                } else if !words.isEmpty {
                    terms.append(.phrase(words.map(\.folded)))
                }
                continue
            }
            var index = 0
            while index < words.count {
                guard words[index].isIdeographic else {
                    terms.append(.word(words[index].folded, prefix: false))
                    index += 1
                    continue
                }
                // The pairs of one run of ideographs: the run as a phrase of its pairs.
                var run = [words[index]]
                index += 1
                while index < words.count, words[index].isIdeographic, words[index].start < run[run.count - 1].end {
                    run.append(words[index])
                    index += 1
                }
                if run.count == 1 {
                    // A lone character, or one pair: a word (a lone character begins pairs).
                    terms.append(.word(run[0].folded, prefix: run[0].folded.count == 1))
                } else {
                    terms.append(.phrase(run.map(\.folded)))
                }
            }
        }
        // The last word is still being typed, unless a space or a quote ended it.
        if let last = q.last, !last.isWhitespace, last != "\"", parts.count % 2 == 1,
            case .word(let word, false)? = terms.last, !(word.first.map(SearchText.isIdeographic) ?? false) {
            terms[terms.count - 1] = .word(word, prefix: true)
        }
        guard terms.count <= maxTerms else {
            throw APIError.badRequest("q may hold at most \(maxTerms) words or phrases; it has \(terms.count).")
        }
        return SearchQuery(terms: terms)
    }

    /// Whether the query has a word still being typed (one matched as a beginning).
    var hasPrefix: Bool {
        terms.contains { if case .word(_, true) = $0 { true } else { false } }
    }

    /// The query with every word whole: what ranks a whole-word match above a partial one.
    var whole: SearchQuery {
        SearchQuery(terms: terms.map { term in
            if case .word(let word, true) = term, word.count > 1 || !(word.first.map(SearchText.isIdeographic) ?? true) {
                return .word(word, prefix: false)
            }
            return term
        })
    }

    /// The query in FTS5's syntax, for `MATCH` (bound as a parameter): each term quoted (the
    /// words hold only letters and digits), all required; with `column`, in that column only.
    func fts5(column: String? = nil) -> String {
        let expression = terms.map { term in
            switch term {
            case .word(let word, let prefix): "\"\(word)\"" + (prefix ? " *" : "")
            case .phrase(let words): "\"\(words.joined(separator: " "))\""
            }
        }.joined(separator: " AND ")
        guard let column else { return expression }
        return "\(column) : (\(expression))"
    }

    /// The query as PostgreSQL's `tsquery` text (bound as a parameter to `to_tsquery('simple',
    /// …)`): all terms required (`&`), phrases with `<->`, a beginning with `:*`; with
    /// `weight`, only words of that weight (`A` is the title).
    func tsquery(weight: String = "") -> String {
        func lexeme(_ word: String, prefix: Bool) -> String {
            "'\(word)'" + (prefix || !weight.isEmpty ? ":" : "") + (prefix ? "*" : "") + weight
        }
        return terms.map { term in
            switch term {
            case .word(let word, let prefix): lexeme(word, prefix: prefix)
            case .phrase(let words): "(" + words.map { lexeme($0, prefix: false) }.joined(separator: " <-> ") + ")"
            }
        }.joined(separator: " & ")
    }

    /// Every folded word the query looks for, and whether it may be a beginning: what a snippet
    /// marks.
    var markedWords: [(word: String, prefix: Bool)] {
        terms.flatMap { term -> [(word: String, prefix: Bool)] in
            switch term {
            case .word(let word, let prefix): [(word, prefix)]
            case .phrase(let words): words.map { ($0, false) }
            }
        }
    }
}
