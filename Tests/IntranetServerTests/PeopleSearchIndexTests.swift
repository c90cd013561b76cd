import Foundation
import HummingbirdTesting
import Logging
import ServiceLifecycleTestKit
import SQLKit
import Testing
@testable import IntranetServer

/// The directory's search in memory (``PeopleSearchIndex``): it must give exactly the page and
/// count the database would, and never answer from before a write.
@Suite("People search in memory")
struct PeopleSearchIndexTests {
    /// A directory of `count` people with keys drawn from a small alphabet (so short texts match
    /// often and long ones rarely), some letters two or three bytes long in UTF-8.
    private static func directory(count: Int, seed: UInt64) -> (people: [(id: Int, searchKey: String)], attributes: [Int: [Int]]) {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("abcdeøπ €z .@")
        var people: [(id: Int, searchKey: String)] = []
        var attributes: [Int: [Int]] = [:]
        var id = 0
        for _ in 0..<count {
            id += Int.random(in: 1...3, using: &generator)
            let length = Int.random(in: 0...24, using: &generator)
            people.append((id, String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })))
            attributes[id] = (0..<4).map { _ in Int.random(in: 0..<50, using: &generator) }
        }
        return (people, attributes)
    }

    /// Each sort's order: by one made-up attribute, then by id, as the database orders.
    private static func orders(_ people: [(id: Int, searchKey: String)], _ attributes: [Int: [Int]]) -> [PersonListRequest.SortKey: [Int]] {
        let keys: [PersonListRequest.SortKey] = [.name, .email, .jobTitle, .department]
        return Dictionary(uniqueKeysWithValues: keys.enumerated().map { index, key in
            (key, people.map(\.id).sorted { (attributes[$0]![index], $0) < (attributes[$1]![index], $1) })
        })
    }

    /// A directory of 3,000 people, its orders, each person's key, and its snapshot (with the
    /// index of triples or without).
    private static func searched(seed: UInt64, indexed: Bool) throws -> (
        people: [(id: Int, searchKey: String)], orders: [PersonListRequest.SortKey: [Int]], keys: [Int: String], snapshot: PeopleSearchSnapshot
    ) {
        let (people, attributes) = directory(count: 3_000, seed: seed)
        let orders = orders(people, attributes)
        let snapshot = try #require(PeopleSearchSnapshot(generation: 0, people: people, orders: orders, maxIndexedBytes: indexed ? .max : 0))
        return (people, orders, Dictionary(uniqueKeysWithValues: people.map { ($0.id, $0.searchKey) }), snapshot)
    }

    @Test("a page and count equal a plain filter and sort, for every sort, order, offset and text length, with the index of triples or without", arguments: [true, false])
    func matchesReference(indexed: Bool) throws {
        let (people, orders, keys, snapshot) = try Self.searched(seed: 7, indexed: indexed)
        for text in ["a", "ø", "€", "π", " ", "ab", "øπ", "e z", "abc", "zz", "a.@", "abcde", "q", "øøøø", "aaaaaaaaaaaaaaaaaaaaaaaaa"] {
            let matching = Set(people.filter { $0.searchKey.utf8.firstRange(of: text.utf8) != nil }.map(\.id))
            for sort in PersonListRequest.SortKey.allCases {
                let ascending = (orders[sort] ?? people.map(\.id)).filter(matching.contains)
                for isDescending in [false, true] {
                    let ordered = isDescending ? Array(ascending.reversed()) : ascending
                    for (offset, limit) in [(0, 20), (7, 5), (0, 3_000), (ordered.count - 1, 10), (ordered.count, 10), (ordered.count + 5, 10)] where offset >= 0 {
                        let request = PersonListRequest(sort: sort, isDescending: isDescending, offset: offset, limit: limit)
                        let found = snapshot.search(text, request)
                        #expect(found.total == matching.count, "\(text) \(sort)")
                        #expect(found.ids == Array(ordered.dropFirst(offset).prefix(limit)), "\(text) \(sort) \(isDescending) \(offset)")
                    }
                }
            }
            for id in matching.prefix(20) { #expect(PeopleSearchSnapshot.contains(keys[id]!, text)) }
        }
        #expect(PeopleSearchSnapshot.contains("anything", ""))
        #expect(!PeopleSearchSnapshot.contains("ab", "abc"))
        #expect(!PeopleSearchSnapshot.contains("", "a"))
    }

    @Test("everyone holding every one of several texts, short and long, found by name order, each ranked by their own key, as a plain filter finds them", arguments: [true, false])
    func severalTextsMatchReference(indexed: Bool) throws {
        let (_, orders, keys, snapshot) = try Self.searched(seed: 11, indexed: indexed)
        for texts in [["a"], ["abc"], ["ab", "cd"], ["øπ €", "a"], ["e z", "zz", "."], ["abcde", "b"], ["q"], ["aaa", "q"], ["€z", ""], ["øøø"],
            ["abca"], ["a€", "bcd"], ["€", "ab"], ["cab", "abc", "bca"], ["ø€"]] {
            let expected = orders[.name]!.filter { id in texts.allSatisfy { keys[id]!.utf8.firstRange(of: $0.utf8) != nil } }
            for choosing in [.sortingAll, .walkingNameOrder] as [PeopleSearchSnapshot.Choosing] {
                var ranked: [String] = []
                let found = snapshot.ranked(allOf: texts, offset: 0, limit: 5_000, choosing: choosing) { key in
                    ranked.append(String(decoding: key, as: UTF8.self))
                    return 0
                }
                #expect(found.ids == expected && found.total == expected.count, "\(texts)")
                #expect(ranked.sorted() == expected.map { keys[$0]! }.sorted(), "the tier is asked of each match's own key")
            }
        }
    }

    @Test("ascending entries narrowed by another ascending list, of like size or far longer, keep exactly those both hold")
    func ascendingIntersection() {
        var generator = SeededGenerator(seed: 5)
        for (count, otherCount) in [(0, 10), (10, 0), (50, 60), (30, 5_000), (400, 400), (3, 100_000)] {
            let mine = Set((0..<count).map { _ in Int32.random(in: 0..<20_000, using: &generator) }).sorted()
            let other = Set((0..<otherCount).map { _ in Int32.random(in: 0..<20_000, using: &generator) }).sorted()
            #expect(mine.intersection(ofAscending: other) == mine.filter(Set(other).contains), "\(count) \(otherCount)")
            #expect(mine.intersection(ofAscending: mine) == mine)
        }
    }

    @Test("a page of the one search's people is every match ranked by tier, then name, however each tier is put in name order", arguments: [true, false])
    func rankedPagesMatchReference(indexed: Bool) throws {
        let (_, orders, keys, snapshot) = try Self.searched(seed: 13, indexed: indexed)
        for texts in [["a"], ["ab"], ["a", "b"], ["e z"], ["ø"], ["zz", "a"], ["abcde"], ["q"]] {
            let needles = texts.map { Array($0.utf8) }
            let ranked = orders[.name]!.filter { id in texts.allSatisfy { keys[id]!.utf8.firstRange(of: $0.utf8) != nil } }
                .enumerated()
                .map { (id: $1, tier: PeopleFinder.tier(of: keys[$1]!, texts), position: $0) }
                .sorted { ($0.tier, $0.position) < ($1.tier, $1.position) }
                .map(\.id)
            for (offset, limit) in [(0, 1), (0, 10), (7, 20), (150, 50), (0, 5_000)] {
                for choosing in [.cheaper, .sortingAll, .walkingNameOrder] as [PeopleSearchSnapshot.Choosing] {
                    let found = snapshot.ranked(allOf: texts, offset: offset, limit: limit, choosing: choosing) { PeopleFinder.tier(of: $0, needles) }
                    #expect(found.total == ranked.count, "\(texts)")
                    #expect(found.ids == Array(ranked.dropFirst(offset).prefix(limit)), "\(texts) \(offset) \(limit) \(choosing)")
                }
            }
        }
    }

    @Test("orders that do not hold everyone exactly once, or ids out of order, make no snapshot")
    func refusesInconsistentReads() {
        let people = [(id: 1, searchKey: "ann"), (id: 2, searchKey: "bob"), (id: 5, searchKey: "cy")]
        let good: [PersonListRequest.SortKey: [Int]] = [.name: [1, 2, 5], .email: [5, 2, 1], .jobTitle: [2, 1, 5], .department: [1, 5, 2]]
        let generation: UInt64 = 0
        #expect(PeopleSearchSnapshot(generation: generation, people: people, orders: good) != nil)
        var missing = good
        missing[.email] = [5, 2]
        #expect(PeopleSearchSnapshot(generation: generation, people: people, orders: missing) == nil, "someone was deleted between the reads")
        var twice = good
        twice[.jobTitle] = [2, 2, 5]
        #expect(PeopleSearchSnapshot(generation: generation, people: people, orders: twice) == nil)
        var stranger = good
        stranger[.department] = [1, 5, 9]
        #expect(PeopleSearchSnapshot(generation: generation, people: people, orders: stranger) == nil, "someone was added between the reads")
        var fewer = good
        fewer[.department] = nil
        #expect(PeopleSearchSnapshot(generation: generation, people: people, orders: fewer) == nil)
        #expect(PeopleSearchSnapshot(generation: generation, people: people.reversed(), orders: good) == nil)
    }

    @Test("while the directory cannot be read, only the first failure is a warning; after a success the next one is again; a closed database is not read")
    func failuresLogOnce() async throws {
        let (logger, log) = RecordingLogHandler.logger(level: .debug)
        let database = try DatabaseService(storage: .sqliteInMemory, poolSize: 1, logger: logger)
        let changes = ChangePipeline()
        let index = PeopleSearchIndex(database: database.database, changes: changes, logger: logger, work: database.backgroundWork)
        func warnings() -> Int { log.all.filter { $0.hasPrefix("warning people search: could not read") }.count }
        for _ in 0..<3 { await index.refresh() }  // no tables yet
        #expect(warnings() == 1)
        #expect(log.all.filter { $0.hasPrefix("debug people search: could not read") }.count == 2)
        try await database.migrate(seeds: true)
        changes.receive(.people)
        await index.refresh()
        #expect(index.current() != nil)
        let sql = try #require(database.database as? any SQLDatabase)
        try await sql.raw("DROP TABLE people").run()
        changes.receive(.people)
        await index.refresh()
        #expect(warnings() == 2, "a new failure after a success is a warning again")
        await database.close()
        changes.receive(.people)
        await index.refresh()  // would crash the process if it queried a closed pool
        #expect(warnings() == 2 && index.current() == nil)
    }

    @Test("a read under way stops at its next chunk when the application begins to shut down, and keeps nothing")
    func readStopsOnShutdown() async throws {
        try await withTestServer { server, _ in
            let index = PeopleSearchIndex(database: server.database.database, changes: server.changes, logger: Logger(label: "test"), chunkSize: 3)
            await testGracefulShutdown { shutdown in
                shutdown.triggerGracefulShutdown()
                await index.refresh()
            }
            #expect(!index.isReady, "the read stopped before the directory was read")
            await index.refresh()
            #expect(index.isReady, "without a shutdown it is read")
        }
    }

    @Test("on the database: the search in memory gives what the database's search gives, and a write makes it stand aside until read again", arguments: TestStorage.all)
    func agreesWithDatabase(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            for (index, name) in ["Åsa Öberg", "Ana Ferreira-Lopes", "Zoë Ångström", "ana", "Éric Ñúñez"].enumerated() {
                let body = #"{"name":"\#(name)","email":"extra\#(index)@brightwater.example","jobTitle":"Analyst","department":"Finance"}"#
                #expect(try await client.send(.post, "/people", json: body).status == .created)
            }
            // Read three rows at a time, so chunks end inside runs of equal departments and titles.
            let chunked = PeopleSearchIndex(database: server.database.database, changes: server.changes, logger: Logger(label: "test"), chunkSize: 3)
            let withIndex = FluentPersonRepository(database: server.database.database, searchIndex: chunked)
            let databaseOnly = FluentPersonRepository(database: server.database.database)
            await chunked.refresh()
            #expect(chunked.current() != nil, "read at the current generation")
            let texts = ["a", "e", "o", "an", "zo", "er", "ana", "lefevre", "head of", "finance", "brightwater", "asa oberg", "xyz"]
            let answered = chunked.answers
            for text in texts {
                for sort in PersonListRequest.SortKey.allCases {
                    for (isDescending, offset) in [(false, 0), (true, 0), (false, 3), (true, 11)] {
                        var request = PersonListRequest(sort: sort, isDescending: isDescending, offset: offset, limit: 7)
                        request.search = text
                        let fromMemory = try await withIndex.list(request)
                        let fromDatabase = try await databaseOnly.list(request)
                        #expect(fromMemory.total == fromDatabase.total, "\(text) \(sort)")
                        #expect(fromMemory.items.map(\.id) == fromDatabase.items.map(\.id), "\(text) \(sort) \(isDescending) \(offset)")
                    }
                }
            }
            #expect(chunked.answers - answered == texts.count * PersonListRequest.SortKey.allCases.count * 4, "every search above was answered from memory")
            let index = server.peopleSearch
            await index.refresh()
            #expect(index.current() != nil)
            let before = try await client.send(.get, "/people?q=oberg")
            #expect(before.headers[.total] == "1")
            let id = try #require(try before.objects().first?["id"] as? Int)
            #expect(try await client.send(.patch, "/people/\(id)", json: #"{"name":"Åsa Lind"}"#).status == .ok)
            #expect(index.current() == nil, "a write makes the snapshot stale at once")
            #expect(try await client.send(.get, "/people?q=oberg").headers[.total] == "0", "the write is seen by the next search")
            #expect(try await client.send(.get, "/people?q=asa+lind").headers[.total] == "1")
            await index.refresh()
            #expect(index.current() != nil)
            #expect(try await client.send(.get, "/people?q=oberg&n=2").headers[.total] == "0", "nor forgotten by the next snapshot")
            #expect(try await client.send(.get, "/people?q=asa+lind&n=2").headers[.total] == "1")
        }
    }
}
