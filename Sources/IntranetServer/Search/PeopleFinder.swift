import FluentKit
import IntranetAPI
import SQLKit

/// The people group of `GET /search`: everyone whose name, e-mail, job title or department
/// holds every word typed (any order, ignoring case and accents; a quoted phrase as it is),
/// ranked: all words whole in the name first, then all beginning a word of the name, then all
/// beginning a word anywhere, then the rest; by name among equals.
///
/// Matches come from the people search's snapshot in memory (``PeopleSearchIndex``) when it is
/// current, otherwise from the database (the same folded `search_key`, `LIKE` per word).
struct PeopleFinder: Sendable {
    let index: PeopleSearchIndex
    let people: FluentPersonRepository
    let database: any Database

    /// The texts each person's search key must contain: the words typed (a quoted phrase as
    /// one), folded as the directory folds its keys.
    static func needles(_ q: String) -> [String] {
        var needles: [String] = []
        for (index, part) in q.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            let pieces = part.split { !($0.isLetter || $0.isNumber) }
            if index % 2 == 1 {
                let phrase = PersonRules.searchKey(pieces.joined(separator: " "))
                if !phrase.isEmpty { needles.append(phrase) }
            } else {
                needles += pieces.map { PersonRules.searchKey(String($0)) }.filter { !$0.isEmpty }
            }
        }
        return needles
    }

    /// One page of the people matching `q`, best first, and how many match in all.
    func search(_ q: String, query: SearchQuery, offset: Int, limit: Int) async throws -> SearchGroup<PersonHit> {
        let needles = Self.needles(q)
        guard !needles.isEmpty else { return SearchGroup(total: 0, items: []) }
        let candidates: [(id: Int, key: String)]
        if let snapshot = index.current() {
            candidates = snapshot.matches(allOf: needles)
        } else {
            candidates = try await fromDatabase(needles)
        }
        let ranked = candidates.enumerated()
            .map { (position, candidate) in (id: candidate.id, tier: Self.tier(of: candidate.key, needles), position: position) }
            .sorted { ($0.tier, $0.position) < ($1.tier, $1.position) }
        let page = ranked.dropFirst(offset).prefix(limit).map(\.id)
        let found = Dictionary(uniqueKeysWithValues: try await people.people(ids: Array(page)).map { ($0.id, $0) })
        let items = page.compactMap { id -> PersonHit? in
            guard let person = found[id] else { return nil }
            let fields = [person.name, person.jobTitle, person.department, person.email, person.phone ?? ""]
            let snippet = SnippetMaker.snippet(ofFields: fields, for: query) ?? SearchSnippet(text: person.name, matches: [])
            return PersonHit(id: person.id, name: person.name, snippet: snippet)
        }
        return SearchGroup(total: candidates.count, items: items)
    }

    /// Everyone whose key holds every needle, by name, read from the database.
    private func fromDatabase(_ needles: [String]) async throws -> [(id: Int, key: String)] {
        guard let sql = database as? any SQLDatabase else { return [] }
        var select = sql.select().column("id").column("search_key").from(PersonModel.schema)
        for needle in needles {
            select = select.where(SearchPattern.like(SQLColumn("search_key"), containing: needle))
        }
        struct Row: Decodable { let id: Int; let search_key: String }
        return try await select.orderBy("name").orderBy("id").all(decoding: Row.self).map { ($0.id, $0.search_key) }
    }

    /// How well a person's key (its first line is the name) matches: 0 when every needle is a
    /// whole word of the name, 1 when each begins one, 2 when each begins a word anywhere, 3
    /// otherwise.
    static func tier(of key: String, _ needles: [String]) -> Int {
        let name = key.prefix { $0 != "\n" }
        if needles.allSatisfy({ occurs($0, in: name, whole: true) }) { return 0 }
        if needles.allSatisfy({ occurs($0, in: name, whole: false) }) { return 1 }
        if needles.allSatisfy({ occurs($0, in: Substring(key), whole: false) }) { return 2 }
        return 3
    }

    /// Whether `needle` occurs in `text` at the start of a word (and, when `whole`, ending one).
    private static func occurs(_ needle: String, in text: Substring, whole: Bool) -> Bool {
        var rest = text[...]
        while let found = rest.range(of: needle) {
            let startsWord = found.lowerBound == text.startIndex || !isWordCharacter(text[text.index(before: found.lowerBound)])
            let endsWord = found.upperBound == text.endIndex || !isWordCharacter(text[found.upperBound])
            if startsWord, !whole || endsWord { return true }
            rest = text[text.index(after: found.lowerBound)...]
        }
        return false
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }
}
