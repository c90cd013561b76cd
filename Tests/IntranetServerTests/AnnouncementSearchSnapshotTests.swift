import Testing
@testable import IntranetServer

/// The snapshot on its own: postings held as bits give the same answers as postings turned into
/// bits per search, and a page is the same however a tier's page is chosen.
@Suite("Search snapshot: postings and pages")
struct AnnouncementSearchSnapshotTests {
    @Test("bits for every term (kept up as announcements are added, changed and removed) answer as postings do")
    func denseAnswersAsPostings() throws {
        var generator = SeededGenerator(seed: 5)
        var sparse = AnnouncementSearchSnapshot(denseCount: .max)
        var dense = AnnouncementSearchSnapshot(denseCount: 3)
        func row(_ id: Int) -> AnnouncementSearchSnapshot.Row {
            func words(_ range: ClosedRange<Int>) -> String {
                (0..<Int.random(in: range, using: &generator)).map { _ in AnnouncementSearchMemoryTests.vocabulary.randomElement(using: &generator)! }
                    .joined(separator: " ")
            }
            let entry = AnnouncementSearchSnapshot.Entry(
                id: id, revision: 1, createdAt: Double(id % 17), isPublished: true, publishAt: nil, expiresAt: nil, isRestricted: id % 4 == 0)
            return AnnouncementSearchSnapshot.Row(entry, document: AnnouncementSearchIndex.Document(title: words(1...3), body: "<p>\(words(2...20))</p>"))
        }
        for id in 1...200 {
            let added = row(id)
            sparse.add(added, sortingLater: true)
            dense.add(added, sortingLater: true)
        }
        sparse.finishLoading()
        dense.finishLoading()
        // After the load: changed, removed and new announcements (slots beyond the bits' first size).
        for id in [3, 50, 77, 201, 202, 203, 150, 204] {
            let changed = row(id)
            sparse.add(changed)
            dense.add(changed)
        }
        sparse.remove(id: 9)
        dense.remove(id: 9)
        for text in AnnouncementSearchMemoryTests.queries where !text.contains("\"") {
            let query = try SearchQuery.parse(text)
            for onlyOpen in [false, true] {
                let visible = sparse.visibleSlots(at: 0) { !onlyOpen || !$0.isRestricted }.slots
                #expect(dense.visibleSlots(at: 0) { !onlyOpen || !$0.isRestricted }.slots.elementsEqual(visible))
                for (offset, limit) in [(0, 10), (3, 4), (0, 300)] {
                    let expected = sparse.search(query, phraseSlots: [:], visible: visible, offset: offset, limit: limit)
                    let found = dense.search(query, phraseSlots: [:], visible: visible, offset: offset, limit: limit)
                    #expect(found.ids == expected.ids && found.total == expected.total, "\(text) \(onlyOpen) \(offset)")
                }
            }
        }
        #expect(sparse.search(try SearchQuery.parse("security"), phraseSlots: [:], visible: sparse.visibleSlots(at: 0) { _ in true }.slots, offset: 0, limit: 5).total > 20)
    }

    @Test("words are told apart by their bytes, as the database's index tells them: two spellings of one Hangul syllable are two words")
    func bytesNotEquivalence() {
        var snapshot = AnnouncementSearchSnapshot()
        for (id, title) in [(1, "\u{D55C}"), (2, "\u{1112}\u{1161}\u{11AB}")] {
            var document = AnnouncementSearchIndex.Document(title: "", body: nil)
            document.title = title
            let entry = AnnouncementSearchSnapshot.Entry(
                id: id, revision: 1, createdAt: 0, isPublished: true, publishAt: nil, expiresAt: nil, isRestricted: false)
            snapshot.add(AnnouncementSearchSnapshot.Row(entry, document: document))
        }
        let visible = snapshot.visibleSlots(at: 0) { _ in true }.slots
        for (word, expected) in [("\u{D55C}", [1]), ("\u{1112}\u{1161}\u{11AB}", [2])] {
            let found = snapshot.search(SearchQuery(terms: [.word(word, prefix: false)]), phraseSlots: [:], visible: visible, offset: 0, limit: 10)
            #expect(found.ids == expected)
        }
    }

    @Test("a tier's page is the same whether every match is weighed or the rank order is walked, and ranks by tier, newer, higher id")
    func choosingAgrees() throws {
        var generator = SeededGenerator(seed: 21)
        let vocabulary = ["security", "report", "canteen", "leave", "policy", "menu"]
        var snapshot = AnnouncementSearchSnapshot()
        var rows: [Int: (title: Set<String>, words: Set<String>, createdAt: Double, restricted: Bool)] = [:]
        func add(_ id: Int, sortingLater: Bool) {
            func words(_ range: ClosedRange<Int>) -> [String] {
                (0..<Int.random(in: range, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
            }
            let (title, body) = (words(1...2), words(1...8))
            // Creation times with ties, in no relation to ids or slots (a change takes a new slot).
            let createdAt = Double(Int.random(in: 0..<30, using: &generator))
            let restricted = id % 5 == 0
            rows[id] = (Set(title), Set(title + body), createdAt, restricted)
            let entry = AnnouncementSearchSnapshot.Entry(
                id: id, revision: 1, createdAt: createdAt, isPublished: true, publishAt: nil, expiresAt: nil, isRestricted: restricted)
            let document = AnnouncementSearchIndex.Document(title: title.joined(separator: " "), body: "<p>\(body.joined(separator: " "))</p>")
            snapshot.add(AnnouncementSearchSnapshot.Row(entry, document: document), sortingLater: sortingLater)
        }
        for id in 1...400 { add(id, sortingLater: true) }
        snapshot.finishLoading()
        for _ in 0..<60 { add(Int.random(in: 1...460, using: &generator), sortingLater: false) }
        for id in [7, 77, 177] {
            snapshot.remove(id: id)
            rows[id] = nil
        }
        func check() throws {
            for text in ["security", "report canteen", "leave menu policy", "secu", "menu po", "nothing"] {
                let query = try SearchQuery.parse(text)
                let wanted = text.split(separator: " ").map(String.init)
                for onlyOpen in [false, true] {
                    let visible = snapshot.visibleSlots(at: 0) { !onlyOpen || !$0.isRestricted }.slots
                    // Every match, ranked by hand: tier (whole words in the title, the last word as a
                    // beginning in the title, whole words anywhere, the rest), newer, higher id.
                    func holds(_ words: Set<String>, whole: Bool) -> Bool {
                        wanted.enumerated().allSatisfy { index, word in
                            words.contains { $0 == word || (!whole && index == wanted.count - 1 && $0.hasPrefix(word)) }
                        }
                    }
                    let ranked = rows.filter { holds($0.value.words, whole: false) && (!onlyOpen || !$0.value.restricted) }
                        .map { id, row in
                            let tier = holds(row.title, whole: true) ? 0 : holds(row.title, whole: false) ? 1 : holds(row.words, whole: true) ? 2 : 3
                            return (id: id, tier: tier, createdAt: row.createdAt)
                        }
                        .sorted { ($0.tier, -$0.createdAt, -$0.id) < ($1.tier, -$1.createdAt, -$1.id) }
                        .map(\.id)
                    for (offset, limit) in [(0, 1), (0, 10), (5, 20), (40, 50), (0, 500)] {
                        for choosing in [.cheaper, .weighingAll, .walkingRankOrder] as [AnnouncementSearchSnapshot.Choosing] {
                            let found = snapshot.search(query, phraseSlots: [:], visible: visible, offset: offset, limit: limit, choosing: choosing)
                            #expect(found.total == ranked.count, "\(text) \(onlyOpen)")
                            #expect(found.ids == Array(ranked.dropFirst(offset).prefix(limit)), "\(text) \(onlyOpen) \(offset) \(limit) \(choosing)")
                        }
                    }
                }
            }
        }
        try check()
        // Many changes at once are added as a load is, and put in order at their end; until
        // then the rank order is not walked.
        for _ in 0..<80 { add(Int.random(in: 1...520, using: &generator), sortingLater: true) }
        try check()
        snapshot.finishLoading()
        try check()
    }
}
