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
        let (page, total): ([Int], Int)
        if let snapshot = index.current() {
            let bytes = needles.map { Array($0.utf8) }
            (page, total) = snapshot.ranked(allOf: needles, offset: offset, limit: limit) { Self.tier(of: $0, bytes) }
        } else {
            let candidates = try await fromDatabase(needles)
            let ranked = candidates.enumerated()
                .map { (position, candidate) in (id: candidate.id, tier: Self.tier(of: candidate.key, needles), position: position) }
                .sorted { ($0.tier, $0.position) < ($1.tier, $1.position) }
            (page, total) = (ranked.dropFirst(offset).prefix(limit).map(\.id), candidates.count)
        }
        let found = Dictionary(uniqueKeysWithValues: try await people.people(ids: page).map { ($0.id, $0) })
        let items = page.compactMap { id -> PersonHit? in
            guard let person = found[id] else { return nil }
            let fields = [person.name, person.jobTitle, person.department, person.email, person.phone ?? ""]
            let snippet = SnippetMaker.snippet(ofFields: fields, for: query) ?? SearchSnippet(text: person.name, matches: [])
            return PersonHit(id: person.id, name: person.name, snippet: snippet)
        }
        return SearchGroup(total: total, items: items)
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
    /// otherwise. Compares UTF-8 bytes, as the snapshot's match does (thousands of keys are
    /// ranked per search: Foundation's `range(of:)` took 15 ms for 7,000).
    static func tier(of key: String, _ needles: [String]) -> Int {
        var key = key
        let needles = needles.map { Array($0.utf8) }
        return key.withUTF8 { tier(of: $0, needles) }
    }

    /// ``tier(of:_:)`` of a key's UTF-8 bytes, for needles as UTF-8 bytes.
    static func tier(of key: UnsafeBufferPointer<UInt8>, _ needles: [[UInt8]]) -> Int {
        let name = UnsafeBufferPointer(rebasing: key[..<(key.firstIndex(of: 0x0A) ?? key.count)])
        if needles.allSatisfy({ occurs($0, in: name, whole: true) }) { return 0 }
        if needles.allSatisfy({ occurs($0, in: name, whole: false) }) { return 1 }
        if needles.allSatisfy({ occurs($0, in: key, whole: false) }) { return 2 }
        return 3
    }

    /// Whether `needle` occurs in `text` at the start of a word (and, when `whole`, ending one).
    private static func occurs(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, whole: Bool) -> Bool {
        guard let first = needle.first, needle.count <= text.count else { return needle.isEmpty }
        var start = 0
        while start + needle.count <= text.count {
            guard let found = text[start...(text.count - needle.count)].firstIndex(of: first) else { return false }
            let end = found + needle.count
            if text[found..<end].elementsEqual(needle),
                !endsWithWordCharacter(text, before: found),
                !whole || !startsWithWordCharacter(text, at: end)
            {
                return true
            }
            start = found + 1
        }
        return false
    }

    /// Whether the character ending just before byte `index` is a letter or a digit.
    private static func endsWithWordCharacter(_ text: UnsafeBufferPointer<UInt8>, before index: Int) -> Bool {
        guard index > 0 else { return false }
        var start = index - 1
        while start > 0, text[start] & 0xC0 == 0x80 { start -= 1 }
        return isWordCharacter(text, at: start)
    }

    /// Whether the character starting at byte `index` is a letter or a digit.
    private static func startsWithWordCharacter(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index < text.count && isWordCharacter(text, at: index)
    }

    private static func isWordCharacter(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let byte = text[index]
        if byte < 0x80 { return (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) }
        var bytes = text[index...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
