import Spearal

/// Why a search result matched: a short plain text with the matched words marked.
public struct SearchSnippet: Codable, Sendable, Equatable, Hashable {
    /// Plain text (never HTML): a window of the body, or the fields of a person that matched.
    public var text: String
    /// The marks, each `[start, length]` in Unicode code points into ``text``.
    public var matches: [[Int]]

    /// Creates a snippet.
    public init(text: String, matches: [[Int]]) {
        self.text = text
        self.matches = matches
    }

    /// The marked parts of ``text``, in order (for showing them; offsets outside the text are
    /// skipped).
    public var marked: [Substring] {
        let scalars = text.unicodeScalars
        return matches.compactMap { match in
            // Compared without adding: offsets from a hostile server must not overflow.
            guard match.count == 2, match[0] >= 0, match[1] > 0, match[0] <= scalars.count, match[1] <= scalars.count - match[0] else {
                return nil
            }
            let start = scalars.index(scalars.startIndex, offsetBy: match[0])
            let end = scalars.index(start, offsetBy: match[1])
            return Substring(text.unicodeScalars[start..<end])
        }
    }
}

/// A person found by `GET /search`.
public struct PersonHit: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The person's id (`GET /people/{id}`).
    public var id: Int
    /// The person's name.
    public var name: String
    /// The fields that matched.
    public var snippet: SearchSnippet

    /// Creates a hit.
    public init(id: Int, name: String, snippet: SearchSnippet) {
        self.id = id
        self.name = name
        self.snippet = snippet
    }
}

/// An announcement found by `GET /search`.
public struct AnnouncementHit: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The announcement's id (`GET /announcements/{id}`).
    public var id: Int
    /// Its title.
    public var title: String
    /// The part of its body (or its title) that matched.
    public var snippet: SearchSnippet

    /// Creates a hit.
    public init(id: Int, title: String, snippet: SearchSnippet) {
        self.id = id
        self.title = title
        self.snippet = snippet
    }
}

/// One group of search results: a page of the best, and how many there are in all.
public struct SearchGroup<Item: Codable & Sendable & Equatable & Hashable>: Codable, Sendable, Equatable, Hashable {
    /// How many results the group has in all (every page).
    public var total: Int
    /// This page of results, best first.
    public var items: [Item]

    /// Creates a group.
    public init(total: Int, items: [Item]) {
        self.total = total
        self.items = items
    }
}

/// The answer of `GET /search`: people first, then announcements; a group not asked for
/// (`only=`) is absent.
public struct SearchResults: Codable, Sendable, Equatable, Hashable {
    /// The people found, when searched.
    public var people: SearchGroup<PersonHit>?
    /// The announcements found, when searched.
    public var announcements: SearchGroup<AnnouncementHit>?

    /// Creates an answer.
    public init(people: SearchGroup<PersonHit>?, announcements: SearchGroup<AnnouncementHit>?) {
        self.people = people
        self.announcements = announcements
    }
}

extension SearchResults: SpearalClassNamed {
    /// `intranet.SearchResults`.
    public static var spearalClassName: String { "intranet.SearchResults" }
}

extension SearchGroup: SpearalClassNamed {
    /// `intranet.SearchGroup`.
    public static var spearalClassName: String { "intranet.SearchGroup" }
}

extension PersonHit: SpearalClassNamed {
    /// `intranet.PersonHit`.
    public static var spearalClassName: String { "intranet.PersonHit" }
}

extension AnnouncementHit: SpearalClassNamed {
    /// `intranet.AnnouncementHit`.
    public static var spearalClassName: String { "intranet.AnnouncementHit" }
}

extension SearchSnippet: SpearalClassNamed {
    /// `intranet.SearchSnippet`.
    public static var spearalClassName: String { "intranet.SearchSnippet" }
}
