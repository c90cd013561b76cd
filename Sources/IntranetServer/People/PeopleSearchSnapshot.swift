#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everyone's folded search text and the order of every sort, as the database had them at one
/// point of the response cache's history: what ``PeopleSearchIndex`` searches in memory.
///
/// The keys lie end to end in one buffer, each followed by a zero byte that no search text can
/// contain (the API refuses control characters). A text of three bytes or more is looked for
/// only in the keys holding its rarest three bytes in a row (an index of every such triple: a
/// name that is nobody's is found absent at once); a shorter one by one pass over the buffer
/// (`memchr` for the text's rarest byte, `memcmp` for the rest). Either way the match is the
/// same byte comparison.
/// The orders come from the database's own `ORDER BY`, so a page found here is the page the
/// database would give, in the database's collation.
final class PeopleSearchSnapshot: Sendable {
    /// The generation of ``ChangeDomain/people`` the rows were read at.
    let generation: UInt64
    /// Person ids, ascending: entry `i` is the person `ids[i]`.
    private let ids: [Int]
    /// The folded keys, end to end, each ended by a zero byte.
    private let text: [UInt8]
    /// Where entry `i`'s key begins in `text`; one more element, `text.count`, ends the last.
    private let starts: [Int]
    /// For every sort but `id`: the entries in the database's ascending order (`column, id`).
    private let orders: [PersonListRequest.SortKey: [Int32]]
    /// How often each byte occurs in `text`: a search looks for its text's rarest byte first.
    private let byteCounts: [Int]
    /// For every three bytes in a row in some key, the entries whose key holds them, ascending;
    /// `nil` for texts longer than ``maxIndexedBytes`` (every search then passes over them all).
    private let triples: [UInt32: [Int32]]?
    /// Longest search texts (all keys together) given an index of triples, which takes about
    /// four and a half bytes for each of theirs (100,000 people: 9 MB of texts, 42 MB of index).
    static let maxIndexedBytes = 64 << 20
    /// Each entry's place in the `name` order.
    private let nameRanks: [Int32]

    /// How many people the snapshot holds.
    var count: Int { ids.count }

    /// Builds a snapshot from the people, ascending by id, and the ids in each sort's order
    /// (with an index of triples unless their texts are longer than `maxIndexedBytes`).
    ///
    /// - Returns: `nil` unless the ids ascend strictly and every sort but `id` has an order
    ///   holding each of them exactly once (the table changed between the reads that made them).
    init?(
        generation: UInt64, people: [(id: Int, searchKey: String)], orders sorted: [PersonListRequest.SortKey: [Int]],
        maxIndexedBytes: Int = PeopleSearchSnapshot.maxIndexedBytes
    ) {
        guard zip(people, people.dropFirst()).allSatisfy({ $0.id < $1.id }),
            sorted.count == PersonListRequest.SortKey.allCases.count - 1, sorted[.id] == nil
        else { return nil }
        self.generation = generation
        self.ids = people.map(\.id)
        var text: [UInt8] = []
        text.reserveCapacity(people.reduce(0) { $0 + $1.searchKey.utf8.count + 1 })
        var starts: [Int] = []
        starts.reserveCapacity(people.count + 1)
        for person in people {
            starts.append(text.count)
            text.append(contentsOf: person.searchKey.utf8)
            text.append(0)
        }
        starts.append(text.count)
        var byteCounts = [Int](repeating: 0, count: 256)
        for byte in text { byteCounts[Int(byte)] += 1 }
        self.byteCounts = byteCounts
        self.triples = text.count <= maxIndexedBytes ? Self.triples(in: text, starts: starts) : nil
        self.text = text
        self.starts = starts
        var orders: [PersonListRequest.SortKey: [Int32]] = [:]
        for (key, order) in sorted {
            guard order.count == self.ids.count else { return nil }
            var seen = [Bool](repeating: false, count: self.ids.count)
            var entries: [Int32] = []
            entries.reserveCapacity(order.count)
            for id in order {
                guard let entry = Self.entry(of: id, in: self.ids), !seen[entry] else { return nil }
                seen[entry] = true
                entries.append(Int32(entry))
            }
            orders[key] = entries
        }
        self.orders = orders
        var nameRanks = [Int32](repeating: 0, count: ids.count)
        for (rank, entry) in (orders[.name] ?? ids.indices.map(Int32.init)).enumerated() { nameRanks[Int(entry)] = Int32(rank) }
        self.nameRanks = nameRanks
    }

    /// The index of triples: for each key, the entry under each three bytes in a row it holds
    /// (once, however often they occur in it).
    private static func triples(in text: [UInt8], starts: [Int]) -> [UInt32: [Int32]] {
        var triples: [UInt32: [Int32]] = [:]
        for entry in 0..<(starts.count - 1) {
            let (start, end) = (starts[entry], starts[entry + 1] - 1)
            guard end - start >= 3 else { continue }
            for position in start...(end - 3) {
                triples[triple(text, at: position), default: []].appendIfLast(isNot: Int32(entry))
            }
        }
        return triples
    }

    private static func triple(_ bytes: [UInt8], at position: Int) -> UInt32 {
        UInt32(bytes[position]) << 16 | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2])
    }

    /// The ids of one page of the people whose key contains `text` (already folded), in the
    /// requested order, and how many match in all.
    func search(_ text: String, _ request: PersonListRequest) -> (ids: [Int], total: Int) {
        let needle = Array(text.utf8)
        var matches = [Bool](repeating: needle.isEmpty, count: ids.count)
        var total = needle.isEmpty ? ids.count : 0
        forEachMatch(of: needle) { entry in
            matches[entry] = true
            total += 1
        }
        guard total > request.offset, request.limit > 0 else { return ([], total) }
        var page: [Int] = []
        page.reserveCapacity(min(request.limit, total - request.offset))
        var seen = 0
        func visit(_ entry: Int) -> Bool {
            guard matches[entry] else { return true }
            if seen >= request.offset { page.append(ids[entry]) }
            seen += 1
            return page.count < request.limit
        }
        if let order = orders[request.sort] {
            if request.isDescending {
                for entry in order.reversed() where !visit(Int(entry)) { break }
            } else {
                for entry in order where !visit(Int(entry)) { break }
            }
        } else if request.isDescending {
            for entry in ids.indices.reversed() where !visit(entry) { break }
        } else {
            for entry in ids.indices where !visit(entry) { break }
        }
        return (page, total)
    }

    /// How ``ranked(allOf:offset:limit:choosing:tier:)`` puts the matches in order.
    enum Choosing {
        /// Walking the name order when the matches are many, otherwise sorting.
        case cheaper
        /// Working out every match's tier and sorting the tiers the page reaches by name.
        case sortingAll
        /// Walking the name order, working out the tier of each match met, until the first
        /// tier alone fills the page or every match was met.
        case walkingNameOrder
    }

    /// One page of the people whose key contains every one of `texts` (already folded), by
    /// `tier` (lowest first; given each key's bytes, it must answer 0, 1, 2 or 3), then by
    /// name; and how many match in all. Works on the keys' bytes where they lie: no key is
    /// copied. When the matches are many (a common first name), the name order is walked and
    /// stops once the first tier alone fills the page: the rest cannot come before those, so
    /// their tiers are never worked out.
    ///
    /// - Parameter choosing: how the matches are put in order (every way gives the same page;
    ///   tests compare).
    func ranked(
        allOf texts: [String], offset: Int, limit: Int, choosing: Choosing = .cheaper, tier: (UnsafeBufferPointer<UInt8>) -> Int
    ) -> (ids: [Int], total: Int) {
        let matches = entries(allOf: texts)
        let wanted = offset + limit
        guard wanted > 0, !matches.isEmpty else { return ([], matches.count) }
        // Walking looks at every person until the page is full; sorting works out every
        // match's tier and sorts them.
        let walking = switch choosing {
        case .cheaper: matches.count * 16 >= ids.count
        case .sortingAll: false
        case .walkingNameOrder: true
        }
        var tiers: [[Int]] = [[], [], [], []]
        text.withUnsafeBufferPointer { text in
            func tierOf(_ entry: Int) -> Int {
                tier(UnsafeBufferPointer(rebasing: text[starts[entry]..<(starts[entry + 1] - 1)]))
            }
            if walking, let order = orders[.name] {
                var isMatch = [Bool](repeating: false, count: ids.count)
                for entry in matches { isMatch[Int(entry)] = true }
                for entry in order where isMatch[Int(entry)] {
                    let tier = tierOf(Int(entry))
                    // No tier needs more than the page: those after come after in name order.
                    if tiers[tier].count < wanted { tiers[tier].append(ids[Int(entry)]) }
                    if tiers[0].count == wanted { break }
                }
            } else {
                var byTier: [[Int32]] = [[], [], [], []]
                for entry in matches { byTier[tierOf(Int(entry))].append(entry) }
                var count = 0
                for (tier, members) in byTier.enumerated() where count < wanted {
                    tiers[tier] = members.sorted { nameRanks[Int($0)] < nameRanks[Int($1)] }.prefix(wanted - count).map { ids[Int($0)] }
                    count += tiers[tier].count
                }
            }
        }
        return (Array(tiers.joined().dropFirst(offset).prefix(limit)), matches.count)
    }

    /// The entries whose key contains every one of `texts`, ascending.
    private func entries(allOf texts: [String]) -> [Int32] {
        // The longest text first: the fewest keys to check for the others.
        let needles = texts.map { Array($0.utf8) }.sorted { $0.count > $1.count }
        guard let first = needles.first else { return [] }
        var matches: [Int32]
        var unproven: ArraySlice<[UInt8]>
        if let candidates = candidates(holdingTriplesOf: needles) {
            // Every key holding a text holds each of its triples: only the keys holding the
            // rarest triple of every text are compared (a text of three bytes is its triple).
            matches = candidates
            unproven = ArraySlice(needles.filter { $0.count != 3 })
        } else {
            matches = matchingEntries(of: first)
            unproven = needles.dropFirst()
        }
        for needle in unproven where !matches.isEmpty && !needle.isEmpty {
            matches = text.withUnsafeBytes { text in
                needle.withUnsafeBytes { needle in matches.filter { holds(Int($0), needle, in: text) } }
            }
        }
        return matches
    }

    /// The entries whose key holds, for every text of three bytes or more, its rarest triple,
    /// ascending (the rarest list narrowed by the others; narrowing by every triple cost more
    /// than the comparisons it spared); `nil` without an index of triples or such a text.
    private func candidates(holdingTriplesOf needles: [[UInt8]]) -> [Int32]? {
        guard let triples else { return nil }
        var lists: [[Int32]] = []
        for needle in needles where needle.count >= 3 {
            var fewest: [Int32]?
            for position in 0...(needle.count - 3) {
                // A triple nobody's key holds: nobody matches.
                guard let holding = triples[Self.triple(needle, at: position)] else { return [] }
                if holding.count < fewest?.count ?? .max { fewest = holding }
            }
            if let fewest { lists.append(fewest) }
        }
        guard !lists.isEmpty else { return nil }
        lists.sort { $0.count < $1.count }
        var candidates = lists[0]
        for list in lists.dropFirst() where !candidates.isEmpty {
            candidates = candidates.intersection(ofAscending: list)
        }
        return candidates
    }

    /// Whether `key` contains `text`, by the same byte comparison the search makes.
    static func contains(_ key: String, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let anchor = needle.indices.first else { return true }
        return Array(key.utf8).withUnsafeBytes { key in
            needle.withUnsafeBytes { needle in
                firstOccurrence(of: needle, anchoredAt: anchor, in: key, from: 0) != nil
            }
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `start`: `memchr` finds the
    /// needle's byte at `anchor` (best the rarest), `memcmp` compares the rest.
    private static func firstOccurrence(
        of needle: UnsafeRawBufferPointer, anchoredAt anchor: Int, in haystack: UnsafeRawBufferPointer, from start: Int
    ) -> Int? {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress else { return nil }
        let byte = Int32(needle[anchor])
        let last = haystack.count - needle.count  // the last position the needle can start at
        var position = start
        while position <= last {
            guard let hit = memchr(base + position + anchor, byte, last - position + 1) else { return nil }
            let candidate = base.distance(to: UnsafeRawPointer(hit)) - anchor
            if memcmp(base + candidate, pattern, needle.count) == 0 { return candidate }
            position = candidate + 1
        }
        return nil
    }

    /// The entries whose key contains `needle`, ascending.
    private func matchingEntries(of needle: [UInt8]) -> [Int32] {
        guard !needle.isEmpty else { return ids.indices.map(Int32.init) }
        var matches: [Int32] = []
        forEachMatch(of: needle) { matches.append(Int32($0)) }
        return matches
    }

    /// Calls `body` with each entry whose key contains `needle` (not empty), ascending.
    @inline(__always)
    private func forEachMatch(of needle: [UInt8], _ body: (Int) -> Void) {
        guard !needle.isEmpty, !ids.isEmpty else { return }
        if needle.count >= 3, let triples {
            // The keys holding the needle's rarest triple are the only ones that may hold it.
            var fewest: [Int32]?
            for position in 0...(needle.count - 3) {
                guard let holding = triples[Self.triple(needle, at: position)] else { return }
                if holding.count < fewest?.count ?? .max { fewest = holding }
            }
            text.withUnsafeBytes { text in
                needle.withUnsafeBytes { needle in
                    for entry in fewest ?? [] where holds(Int(entry), needle, in: text) { body(Int(entry)) }
                }
            }
            return
        }
        let anchor = needle.indices.min { byteCounts[Int(needle[$0])] < byteCounts[Int(needle[$1])] } ?? 0
        text.withUnsafeBytes { text in
            needle.withUnsafeBytes { needle in
                var entry = 0
                var cursor = 0
                while let position = Self.firstOccurrence(of: needle, anchoredAt: anchor, in: text, from: cursor) {
                    while starts[entry + 1] <= position { entry += 1 }
                    body(entry)
                    cursor = starts[entry + 1]
                }
            }
        }
    }

    /// Whether entry `entry`'s key contains `needle` (not empty).
    private func holds(_ entry: Int, _ needle: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer) -> Bool {
        let key = UnsafeRawBufferPointer(rebasing: text[starts[entry]..<(starts[entry + 1] - 1)])
        return Self.firstOccurrence(of: needle, anchoredAt: 0, in: key, from: 0) != nil
    }

    /// The entry of person `id` in the ascending `ids`.
    private static func entry(of id: Int, in ids: [Int]) -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }
}

private extension Array where Element == Int32 {
    /// Appends `entry` unless it is already the last (a key holding the same triple twice).
    mutating func appendIfLast(isNot entry: Int32) {
        if last != entry { append(entry) }
    }
}
