import Foundation

/// The announcements' search index in memory (``AnnouncementSearchMemory`` keeps it current): for
/// every word (as ``SearchText`` folds it, exactly the words ``AnnouncementSearchIndex`` stores
/// in the database), the announcements holding it in their title or body; for every
/// announcement, its title's words in order and what decides who may find it when
/// (status, publication window, restriction) and where it ranks (creation time, id).
///
/// Announcements live in numbered slots. A changed announcement takes a new slot and its old
/// one is marked removed, so postings only ever grow at their end and stay ascending; the
/// owner reads everything afresh once removed slots are many (``removedCount``).
///
/// It is a value: a search works on the copy it was given while the owner changes its own.
struct AnnouncementSearchSnapshot: Sendable {
    /// One announcement as indexed.
    struct Entry: Sendable {
        var id: Int
        var revision: Int
        /// Seconds since 1970.
        var createdAt: Double
        var isPublished: Bool
        var publishAt: Double?
        var expiresAt: Double?
        var isRestricted: Bool
        var isRemoved = false

        /// Whether readers see it at `now` (seconds since 1970), as
        /// ``StoredAnnouncement/isLive(at:)`` decides.
        func isLive(at now: Double) -> Bool {
            isPublished && (publishAt.map { $0 <= now } ?? true) && (expiresAt.map { now < $0 } ?? true)
        }
    }

    /// What is indexed of one announcement, as read from the database.
    struct Row: Sendable {
        var entry: Entry
        /// The title's words, in order.
        var title: [String]
        /// Every word of the title and body, each once.
        var words: [String]

        /// `document`'s words, and `entry`.
        init(_ entry: Entry, document: AnnouncementSearchIndex.Document) {
            self.entry = entry
            title = document.title.utf8.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
            var words = Set(title.map(FoldedWord.init))
            for word in document.body.utf8.split(separator: 0x20) { words.insert(FoldedWord(String(decoding: word, as: UTF8.self))) }
            self.words = words.map(\.text)
        }
    }

    /// By slot (a plain value each, so that a search reads them without reference counting).
    private(set) var entries: [Entry] = []
    /// By slot: the title's words, as term numbers, in order (phrases within titles).
    private var titles: [[UInt32]] = []
    private var slotsByID: [Int: UInt32] = [:]
    private var numbers: [FoldedWord: UInt32] = [:]
    private var terms: [String] = []
    /// Term numbers in the UTF-8 byte order of their terms: where the words beginning so are.
    private var sortedTerms: [UInt32] = []
    /// Whether ``sortedTerms`` holds every term (a bulk load sorts them once at its end).
    private var isSorted = true
    /// Every slot, the best ranked first (newer, then the higher id; removed ones are left in
    /// place): the first page of thousands of matches is found by walking it, not by weighing
    /// every match.
    private var rankOrder: [UInt32] = []
    /// Whether ``rankOrder`` is in order (a bulk load sorts it once at its end).
    private var isRankSorted = true
    /// By term number: the slots whose title or body holds the term, ascending (empty for the
    /// terms of ``densePostings``).
    private var postings: [[UInt32]] = []
    /// By term number: the slots whose title holds the term, ascending (what ranks first; empty
    /// for the terms of ``denseTitlePostings``).
    private var titlePostings: [[UInt32]] = []
    /// By term number, for the terms held by at least ``denseCount`` announcements: their
    /// postings as bits instead (their lists in ``postings`` are empty), and the same for
    /// titles. A search turns postings into bits; for these it copies bits of a fixed size
    /// instead, so that how long a search takes does not grow with how many announcements a
    /// reader may not see hold a word — and bits take less memory than that many postings.
    private var densePostings: [UInt32: SlotSet] = [:]
    private var denseTitlePostings: [UInt32: SlotSet] = [:]
    /// How many postings make a term's postings also held as bits (1,024 unless a test says:
    /// 12.5 KB each per 100,000 announcements; turning fewer postings into bits takes a
    /// microsecond or two).
    let denseCount: Int

    init(denseCount: Int = 1_024) {
        self.denseCount = denseCount
    }

    /// Slots marked removed.
    private(set) var removedCount = 0
    /// The postings held, one per announcement and distinct word.
    private(set) var postingCount = 0

    /// How many announcements it holds.
    var count: Int { slotsByID.count }

    /// What is held of announcement `id`, if it is.
    func entry(of id: Int) -> Entry? {
        slotsByID[id].map { entries[Int($0)] }
    }

    /// The ids of the announcements held.
    var ids: some Collection<Int> { slotsByID.keys }

    // MARK: Changing

    /// Indexes `row`, replacing what was indexed of its announcement. With `sortingLater`, new
    /// terms are not put in order until ``finishLoading()`` (for a load of many).
    mutating func add(_ row: Row, sortingLater: Bool = false) {
        remove(id: row.entry.id)
        let slot = UInt32(entries.count)
        let title = row.title.map { number(of: $0, sortingLater: sortingLater) }
        for number in Set(title) { Self.append(slot, to: number, in: &titlePostings, dense: &denseTitlePostings, now: !sortingLater, denseCount: denseCount) }
        for word in row.words {
            let number = number(of: word, sortingLater: sortingLater)
            Self.append(slot, to: number, in: &postings, dense: &densePostings, now: !sortingLater, denseCount: denseCount)
        }
        postingCount += row.words.count
        var entry = row.entry
        entry.isRemoved = false
        entries.append(entry)
        titles.append(title)
        slotsByID[entry.id] = slot
        if sortingLater || !isRankSorted {
            rankOrder.append(slot)
            isRankSorted = false
        } else {
            rankOrder.insert(slot, at: rankPosition(of: entry))
        }
    }

    /// Whether `a` ranks before `b` among announcements of one tier: newer, then the higher id.
    private static func ranksBefore(_ a: Entry, _ b: Entry) -> Bool {
        a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id > b.id
    }

    /// Where in ``rankOrder`` `entry` goes: after every slot that ranks before it.
    private func rankPosition(of entry: Entry) -> Int {
        Self.partitionPoint(of: rankOrder) { Self.ranksBefore(entries[Int($0)], entry) }
    }

    /// The first position in `order` whose element `isBefore` says is not, where every one
    /// before it is (by binary search).
    private static func partitionPoint(of order: [UInt32], isBefore: (UInt32) -> Bool) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(order[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Appends `slot` to term `number`'s postings, and to its bits when it has them or (`now`)
    /// has just come to ``denseCount`` postings.
    private static func append(
        _ slot: UInt32, to number: UInt32, in lists: inout [[UInt32]], dense: inout [UInt32: SlotSet], now: Bool, denseCount: Int
    ) {
        if dense[number] != nil {
            dense[number]?.insert(slot)
            return
        }
        lists[Int(number)].append(slot)
        if now, lists[Int(number)].count >= denseCount {
            dense[number] = SlotSet(lists[Int(number)], capacity: Int(slot) + 1)
            lists[Int(number)] = []
        }
    }

    /// The slots of term `number`'s postings in `lists`, of the current capacity.
    private func slots(of number: UInt32, in lists: [[UInt32]], dense: [UInt32: SlotSet]) -> SlotSet {
        if let bits = dense[number] { return bits.resized(to: entries.count) }
        return SlotSet(lists[Int(number)], capacity: entries.count)
    }

    /// Marks announcement `id` removed, if it is held.
    mutating func remove(id: Int) {
        guard let slot = slotsByID.removeValue(forKey: id) else { return }
        entries[Int(slot)].isRemoved = true
        titles[Int(slot)] = []
        removedCount += 1
    }

    /// Puts the terms of a load in order, and gives back the spare capacity of the postings.
    mutating func finishLoading() {
        if !isRankSorted {
            rankOrder.sort { Self.ranksBefore(entries[Int($0)], entries[Int($1)]) }
            isRankSorted = true
        }
        if !isSorted {
            sortedTerms = Array(0..<UInt32(terms.count))
            sortedTerms.sort { Self.precedes(terms[Int($0)], terms[Int($1)]) }
            isSorted = true
        }
        func trim(_ lists: inout [[UInt32]]) {
            for index in lists.indices where lists[index].capacity > lists[index].count + 8 {
                lists[index] = Array(unsafeUninitializedCapacity: lists[index].count) { buffer, count in
                    count = buffer.initialize(fromContentsOf: lists[index])
                }
            }
        }
        for (lists, bits) in [(\Self.postings, \Self.densePostings), (\Self.titlePostings, \Self.denseTitlePostings)] {
            for number in self[keyPath: lists].indices where self[keyPath: lists][number].count >= denseCount {
                self[keyPath: bits][UInt32(number)] = SlotSet(self[keyPath: lists][number], capacity: entries.count)
                self[keyPath: lists][number] = []
            }
        }
        trim(&postings)
        trim(&titlePostings)
    }

    private mutating func number(of term: String, sortingLater: Bool) -> UInt32 {
        if let number = numbers[FoldedWord(term)] { return number }
        let number = UInt32(terms.count)
        terms.append(term)
        postings.append([])
        titlePostings.append([])
        numbers[FoldedWord(term)] = number
        if sortingLater {
            isSorted = false
        } else {
            let position = firstTerm(notBefore: term)
            sortedTerms.insert(number, at: position)
        }
        return number
    }

    /// Whether `a`'s UTF-8 bytes come before `b`'s (FTS5 and PostgreSQL compare prefixes by bytes).
    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The position in ``sortedTerms`` of the first term not before `text`.
    private func firstTerm(notBefore text: String) -> Int {
        Self.partitionPoint(of: sortedTerms) { Self.precedes(terms[Int($0)], text) }
    }

    // MARK: Searching

    /// The terms beginning with `prefix`.
    private func terms(beginning prefix: String) -> [UInt32] {
        var found: [UInt32] = []
        var position = firstTerm(notBefore: prefix)
        while position < sortedTerms.count, terms[Int(sortedTerms[position])].utf8.starts(with: prefix.utf8) {
            found.append(sortedTerms[position])
            position += 1
        }
        return found
    }

    /// One term of a query, made ready: the slots matching it, and those whose title matches it
    /// (for a phrase, whose title holds its words: ``titleHolds(_:_:)`` tells whether in a row).
    private struct Matcher {
        var slots: SlotSet
        var titleSlots: SlotSet
        var phrase: [UInt32]?
    }

    private func matcher(_ term: SearchQuery.Term, phraseSlots: [[String]: SlotSet]) -> Matcher {
        let capacity = entries.count
        let none = SlotSet(capacity: capacity)
        switch term {
        case .word(let word, false):
            guard let number = numbers[FoldedWord(word)] else { return Matcher(slots: none, titleSlots: none) }
            return Matcher(
                slots: slots(of: number, in: postings, dense: densePostings),
                titleSlots: slots(of: number, in: titlePostings, dense: denseTitlePostings))
        case .word(let word, true):
            var slots = none
            var titleSlots = none
            for number in terms(beginning: word) {
                if let bits = densePostings[number] { slots.formUnion(bits) } else { slots.formUnion(postings[Int(number)]) }
                if let bits = denseTitlePostings[number] { titleSlots.formUnion(bits) } else { titleSlots.formUnion(titlePostings[Int(number)]) }
            }
            return Matcher(slots: slots, titleSlots: titleSlots)
        case .phrase(let words):
            let slots = phraseSlots[words] ?? none
            let sequence = words.compactMap { numbers[FoldedWord($0)] }
            guard sequence.count == words.count else { return Matcher(slots: slots, titleSlots: none) }
            var titleSlots = self.slots(of: sequence[0], in: titlePostings, dense: denseTitlePostings)
            for number in sequence.dropFirst() { titleSlots.formIntersection(self.slots(of: number, in: titlePostings, dense: denseTitlePostings)) }
            return Matcher(slots: slots, titleSlots: titleSlots, phrase: sequence)
        }
    }

    /// Whether `title` holds `sequence` one word right after the other.
    private static func titleHolds(_ title: [UInt32], _ sequence: [UInt32]) -> Bool {
        guard title.count >= sequence.count else { return false }
        return (0...(title.count - sequence.count)).contains { start in title[start..<(start + sequence.count)].elementsEqual(sequence) }
    }

    /// The slots matching every one of `matchers`, and those whose title does.
    private func intersection(_ matchers: [Matcher]) -> (slots: SlotSet, titleSlots: SlotSet) {
        var slots = matchers[0].slots
        var titleSlots = matchers[0].titleSlots
        for matcher in matchers.dropFirst() {
            slots.formIntersection(matcher.slots)
            titleSlots.formIntersection(matcher.titleSlots)
        }
        let phrases = matchers.compactMap(\.phrase)
        if !phrases.isEmpty {
            var holding = SlotSet(capacity: entries.count)
            titleSlots.forEach { slot in
                if phrases.allSatisfy({ Self.titleHolds(titles[Int(slot)], $0) }) { holding.formUnion(CollectionOfOne(slot)) }
            }
            titleSlots = holding
        }
        return (slots, titleSlots)
    }

    /// The slots of the announcements among `ids` (held ones only).
    func slots(of ids: Set<Int>) -> SlotSet {
        SlotSet(ids.compactMap { slotsByID[$0] }, capacity: entries.count)
    }

    /// The slots of the announcements `allows` lets a reader find at `now` (seconds since 1970),
    /// and until when that holds: the first publication or expiry after `now` among all held.
    func visibleSlots(at now: Double, allows: (Entry) -> Bool) -> (slots: SlotSet, until: Double) {
        var slots = SlotSet(capacity: entries.count)
        var until = Double.infinity
        for (slot, entry) in entries.enumerated() where !entry.isRemoved {
            if let publishAt = entry.publishAt, publishAt > now { until = min(until, publishAt) }
            if let expiresAt = entry.expiresAt, expiresAt > now { until = min(until, expiresAt) }
            if allows(entry) { slots.formUnion(CollectionOfOne(UInt32(slot))) }
        }
        return (slots, until)
    }

    /// How ``search(_:phraseSlots:visible:offset:limit:choosing:)`` picks a page among a tier's
    /// matches.
    enum Choosing {
        /// Walking the rank order when that looks at fewer slots than there are matches,
        /// otherwise weighing every match.
        case cheaper
        /// Weighing every match in a heap of the page's size.
        case weighingAll
        /// Walking ``rankOrder`` until the page is full.
        case walkingRankOrder
    }

    /// One page of the announcements matching `query` among `visible` (``visibleSlots(at:allows:)``),
    /// in the order ``FluentAnnouncementRepository/search(_:offset:limit:visibility:)`` gives, and
    /// how many there are in all. Hidden announcements are set aside by one intersection before
    /// anything is counted or ranked, so the work done for each match a reader may not see is
    /// nil and the time a search takes tells next to nothing about them. (Walking the rank
    /// order passes over every announcement ranked before the page's last, matching or not,
    /// visible or not: its time follows how many announcements there are, not which of them a
    /// reader may not see hold the words.)
    ///
    /// - Parameters:
    ///   - phraseSlots: for each phrase of the query, the slots of the announcements holding it
    ///     (phrases in bodies are matched by the database's index: word positions are not held
    ///     here).
    ///   - choosing: how a tier's page is chosen (every way gives the same page; tests compare).
    func search(
        _ query: SearchQuery, phraseSlots: [[String]: SlotSet], visible: SlotSet, offset: Int, limit: Int, choosing: Choosing = .cheaper
    ) -> (ids: [Int], total: Int) {
        guard !query.terms.isEmpty else { return ([], 0) }
        // The same tiers as the database's search: every term whole in the title, then with the
        // word being typed as a beginning, then every term whole anywhere, then the rest.
        var matching = intersection(query.terms.map { matcher($0, phraseSlots: phraseSlots) })
        matching.slots.formIntersection(visible)
        let whole = query.hasPrefix ? intersection(query.whole.terms.map { matcher($0, phraseSlots: phraseSlots) }) : matching
        let wanted = offset + limit
        var page: [Int] = []
        var rest = matching.slots
        for tier in [whole.titleSlots, matching.titleSlots, whole.slots, nil] where page.count < wanted {
            var members = rest
            if let tier {
                members.formIntersection(tier)
                rest.subtract(members)
            }
            page += best(wanted - page.count, of: members, choosing: choosing)
        }
        return (Array(page.dropFirst(offset)), matching.slots.count)
    }

    /// The ids of the best `count` of `members`, best first.
    private func best(_ count: Int, of members: SlotSet, choosing: Choosing) -> [Int] {
        let found = members.count
        guard found > 0, count > 0 else { return [] }
        // Walking the rank order looks at about count × slots ÷ found slots before the page is
        // full; weighing looks at every one found.
        let asked = switch choosing {
        case .cheaper: found > count && count * rankOrder.count < found * found
        case .weighingAll: false
        case .walkingRankOrder: true
        }
        // The rank order is walked only when it is in order (a load puts it so at its end).
        let walking = asked && isRankSorted
        if walking {
            var page: [Int] = []
            page.reserveCapacity(min(count, found))
            entries.withUnsafeBufferPointer { entries in
                for slot in rankOrder where members.contains(slot) {
                    page.append(entries[Int(slot)].id)
                    if page.count == count { break }
                }
            }
            return page
        }
        var best = PageSelection(size: count)
        entries.withUnsafeBufferPointer { entries in
            members.forEach { slot in
                let entry = entries[Int(slot)]
                best.offer(PageSelection.Candidate(createdAt: entry.createdAt, id: entry.id))
            }
        }
        return best.ordered().map(\.id)
    }
}

/// A folded word compared and hashed by its UTF-8 bytes, as FTS5 and PostgreSQL compare words
/// (a `String` compares by canonical equivalence: two spellings of one Hangul syllable would be
/// one word here and two in the database).
struct FoldedWord: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (a: FoldedWord, b: FoldedWord) -> Bool {
        a.text.utf8.elementsEqual(b.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
