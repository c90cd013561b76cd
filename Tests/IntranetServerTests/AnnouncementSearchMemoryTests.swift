import Foundation
import HummingbirdTesting
import SQLKit
import Testing
@testable import IntranetServer

/// The announcements' search index in memory (``AnnouncementSearchMemory``): it must give exactly
/// the page and total the database's index gives, for every reader, and never answer from
/// before a write — here, or on another instance.
@Suite("Search in memory: the database's answers, faster")
struct AnnouncementSearchMemoryTests {
    /// Words that share beginnings, accents, ß, and runs of Chinese and Japanese.
    static let vocabulary = [
        "security", "secure", "securing", "sécurité", "Sicherheit", "Straße", "strasse", "quarterly", "report", "reports",
        "canteen", "menu", "Lisbon", "porto", "reunião", "Zoë", "zoe", "新年快乐", "办公室", "会議資料", "東京", "leave",
        "parental", "policy", "rotate", "your", "keys", "ssh",
    ]

    /// `count` announcements of random words (seeded): some restricted to the reader or to
    /// another, some drafts, scheduled or expired.
    static func makeCorpus(_ client: some TestClientProtocol, count: Int, seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        func words(_ range: ClosedRange<Int>) -> String {
            (0..<Int.random(in: range, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }.joined(separator: " ")
        }
        for index in 0..<count {
            var extra = ""
            switch index % 10 {
            case 3: extra = #","readers":[\#(TestUser.reader.id)]"#
            case 5: extra = #","readers":[\#(TestUser.otherReader.id)]"#
            default: break
            }
            if index % 13 == 0 { extra += #","status":"draft""# }
            if index % 17 == 1 { extra += #","publishAt":"2099-01-01T00:00:00Z""# }
            if index % 19 == 2 { extra += #","publishAt":"2001-01-01T00:00:00Z","expiresAt":"2002-01-01T00:00:00Z""# }
            let body = "<p>\(words(3...30))</p><p>\(words(0...10))</p>"
            _ = try await client.createAnnouncement(#"{"title":\#(Body.string(words(1...4))),"body":\#(Body.string(body))\#(extra)}"#)
        }
    }

    static let queries = [
        "security", "secu", "sec", "s", "SÉCURITÉ", "report quarterly", "quarterly rep", "\"quarterly report\"", "\"report quarterly\"",
        "strasse", "straße", "zoe", "新年", "办公室", "会議", "東", "新", "sicherheit canteen", "canteen menu lisbon", "nothinglikethis",
        "porto reunião", "\"rotate your\" keys", "ssh ke", "leave parental policy", "k", "\"新年快乐\"", "your your",
    ]

    @Test("every query, reader and page gives the database's page and total", arguments: TestStorage.all)
    func sameAsDatabase(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            try await Self.makeCorpus(client, count: 150, seed: 11)
            try await waitUntil("the index in memory is current") { server.searchMemory.isReady }
            var generator = SeededGenerator(seed: 12)
            var queries = Self.queries
            for _ in 0..<15 {
                var text = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Self.vocabulary.randomElement(using: &generator)! }
                    .joined(separator: " ")
                text = String(text.prefix(Int.random(in: 1...text.count, using: &generator)))
                queries.append(text)
            }
            let visibilities: [Visibility] = [.unrestricted, .reader(userID: TestUser.reader.id), .everything]
            let before = server.searchMemory.answers
            var asked = 0
            var found = 0
            for text in queries {
                let query = try SearchQuery.parse(text)
                for visibility in visibilities {
                    for (offset, limit) in [(0, 10), (2, 3), (0, 500), (40, 10)] {
                        let memory = try await server.announcements.search(query, offset: offset, limit: limit, visibility: visibility)
                        let database = try await server.announcements.searchDatabase(query, offset: offset, limit: limit, visibility: visibility)
                        #expect(memory.total == database.total, "\(text) \(visibility) \(offset)")
                        #expect(memory.items.map(\.id) == database.items.map(\.id), "\(text) \(visibility) \(offset) \(limit)")
                        asked += 1
                        found += memory.total
                    }
                }
            }
            #expect(server.searchMemory.answers - before == asked, "every search was answered in memory")
            #expect(found > 1_000, "the queries find many announcements: \(found)")
        }
    }

    @Test("rebuilding the database's index from scratch gives the same answers; on PostgreSQL its GIN index is back", arguments: TestStorage.all)
    func rebuild(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            try await Self.makeCorpus(client, count: 60, seed: 21)
            let queries = try Self.queries.map { try SearchQuery.parse($0) }
            func answers() async throws -> [[Int]] {
                var answers: [[Int]] = []
                for query in queries {
                    let found = try await server.announcements.searchDatabase(query, offset: 0, limit: 100, visibility: .everything)
                    answers.append([found.total] + found.items.map(\.id))
                }
                return answers
            }
            let before = try await answers()
            #expect(before.reduce(0) { $0 + $1[0] } > 100, "the queries find announcements")
            let count = try await server.database.database.transaction { try await AnnouncementSearchIndex.rebuild(on: $0, chunk: 7) }
            #expect(count >= 60)
            #expect(try await answers() == before)
            if storage == .postgres {
                let sql = try #require(server.database.database as? any SQLDatabase)
                struct Index: Decodable { let indexdef: String }
                let indexes = try await sql.raw("SELECT indexdef FROM pg_indexes WHERE tablename = 'announcement_search'").all(decoding: Index.self)
                #expect(indexes.contains { $0.indexdef.contains("USING gin (document)") }, "\(indexes)")
            }
        }
    }

    @Test("a write is searched in the database until memory has it, then in memory: created, changed, attached, deleted", arguments: TestStorage.all)
    func freshAfterWrites(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let other = try await client.createAnnouncement(#"{"title":"Wombat menu","body":"<p>Soup.</p>"}"#)
            try await waitUntil("the index in memory is current") { server.searchMemory.isReady }
            func found(_ text: String) async throws -> [Int] {
                SearchTests.ids(try await SearchTests.search(client, text)["announcements"])
            }
            let id = try await client.createAnnouncement(#"{"title":"Aardvark week","body":"<p>Zebras welcome.</p>"}"#)
            #expect(try await found("aardvark") == [id], "found at once")
            try await waitUntil("memory has the new announcement") { server.searchMemory.isReady }
            var answers = server.searchMemory.answers
            #expect(try await found("zebras") == [id])
            #expect(server.searchMemory.answers == answers + 1, "answered in memory")

            let changed = try await client.send(.patch, "/announcements/\(id)", json: #"{"title":"Okapi week"}"#, as: .editor)
            try #require(changed.status == .ok, "\(changed.text)")
            #expect(try await found("aardvark").isEmpty, "the old title is gone at once")
            try await waitUntil("memory has the change") { server.searchMemory.isReady }
            answers = server.searchMemory.answers
            #expect(try await found("aardvark week").isEmpty, "(another text than before: the response cache keeps answers)")
            #expect(try await found("okapi zebras") == [id])
            #expect(server.searchMemory.answers == answers + 2)

            _ = try await client.attach(Data("plan".utf8), name: "floorplan-lisbon.pdf", type: "application/pdf", to: id)
            try await waitUntil("memory has the attachment") { server.searchMemory.isReady }
            answers = server.searchMemory.answers
            #expect(try await found("floorplan") == [id], "an attachment's name finds its announcement")
            #expect(server.searchMemory.answers == answers + 1)

            let deleted = try await client.send(.delete, "/announcements/\(id)", as: .editor)
            try #require(deleted.status == .noContent, "\(deleted.text)")
            #expect(try await found("okapi").isEmpty, "gone at once")
            try await waitUntil("memory has the deletion") { server.searchMemory.isReady }
            answers = server.searchMemory.answers
            #expect(try await found("okapi week").isEmpty)
            #expect(try await found("wombat") == [other])
            #expect(server.searchMemory.answers == answers + 2)
        }
    }

    @Test("a body found again is given as kept for the same revision and length; another length, or revision, reads it; a change forgets it", arguments: TestStorage.all)
    func keptBodies(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Quokka notes","body":"<p>The quokka smiles at the <b>canteen</b>.</p>"}"#)
            try await waitUntil("the index in memory is current") { server.searchMemory.isReady }
            func snippetText() async throws -> String? {
                let found = try await server.announcements.search(try SearchQuery.parse("quokka"), offset: 0, limit: 10, visibility: .unrestricted)
                #expect(found.items.map(\.id) == [id])
                return found.items.first?.body.text
            }
            #expect(try await snippetText() == "The quokka smiles at the canteen.")
            let sql = try #require(server.database.database as? any SQLDatabase)
            // By hand, the same length under the same revision (no write of the server's does
            // this): the text kept is what the search shows. (PostgreSQL's change feed tells
            // of the hand write, which forgets the text, sooner or later.)
            try await sql.raw("UPDATE announcements SET body = '<p>The quokka frowns at the <b>canteen</b>.</p>' WHERE id = \(bind: id)").run()
            let sameLength = try await snippetText()
            if storage == .sqlite { #expect(sameLength == "The quokka smiles at the canteen.") }
            try await sql.raw("UPDATE announcements SET body = '<p>The quokka left the canteen.</p>' WHERE id = \(bind: id)").run()
            let answers = server.searchMemory.answers
            #expect(try await snippetText() == "The quokka left the canteen.", "another length: read")
            if storage == .sqlite {
                // Nothing told the memory of the change by hand: it still answers, reading the body.
                #expect(server.searchMemory.answers == answers + 1, "answered in memory")
            }
            try await sql.raw("UPDATE announcements SET body = '<p>The quokka lost the canteen.</p>', revision = revision + 1 WHERE id = \(bind: id)").run()
            #expect(try await snippetText() == "The quokka lost the canteen.", "another revision (of the same length): read")
            try await waitUntil("the index in memory is current") { server.searchMemory.isReady }
            let createdAt = try #require(server.searchMemory.current()?.snapshot.entry(of: id)).createdAt
            let handEdited = PlainBodies.Key(id: id, revision: 2, createdAt: createdAt)
            if storage == .sqlite { #expect(server.searchMemory.bodies.isKept(handEdited)) }
            let patched = try await client.send(.patch, "/announcements/\(id)", json: #"{"body":"<p>The quokka lost the canteen?</p>"}"#, as: .editor)
            try #require(patched.status == .ok, "\(patched.text)")
            #expect(!server.searchMemory.bodies.isKept(handEdited), "forgotten as the change arrives")
            #expect(try await snippetText() == "The quokka lost the canteen?")
        }
    }

    // On SQLite only: on PostgreSQL the change feed may bring this instance's own writes back
    // a second time, a change that moves the snapshot on between the searches.
    @Test("a phrase's matches, asked of the database's index, are kept until announcements change")
    func keptPhrases() async throws {
        let storage = TestStorage.sqlite
        try await withTestServer(storage, mode: .live) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Quokka day","body":"<p>The red door opens at nine.</p>"}"#)
            try await waitUntil("the index in memory is current") { server.searchMemory.isReady }
            func found() async throws -> [Int] {
                let answers = server.searchMemory.answers
                let found = try await server.announcements.search(try SearchQuery.parse(#""red door""#), offset: 0, limit: 10, visibility: .unrestricted)
                #expect(server.searchMemory.answers == answers + 1, "answered in memory")
                return found.items.map(\.id)
            }
            #expect(try await found() == [id])
            // By hand, unseen by the memory: the database's index no longer holds it, but the
            // phrase's matches are kept.
            let sql = try #require(server.database.database as? any SQLDatabase)
            let column = storage == .sqlite ? "rowid" : "announcement_id"
            try await sql.raw("DELETE FROM \(ident: AnnouncementSearchIndex.table) WHERE \(ident: column) = \(bind: id)").run()
            #expect(try await found() == [id], "kept")
            _ = try await client.createAnnouncement(#"{"title":"Wombat day","body":"<p>Blue window.</p>"}"#)
            try await waitUntil("memory has the new announcement") { server.searchMemory.isReady }
            #expect(try await found().isEmpty, "asked again after a change")
        }
    }

    @Test("a write through one PostgreSQL instance reaches the other's memory")
    func otherInstance() async throws {
        guard TestStorage.postgresURL != nil else { return }
        try await withTwoPostgresInstances { one, two in
            try await waitUntil("both indexes in memory are current") { one.server.searchMemory.isReady && two.server.searchMemory.isReady }
            let id = try await one.client.createAnnouncement(#"{"title":"Pangolin day","body":"<p>Scales.</p>"}"#)
            try await waitUntil("the other instance's memory has it") {
                guard two.server.searchMemory.isReady, let hit = try? await two.server.announcements.search(
                    try SearchQuery.parse("pangolin"), offset: 0, limit: 10, visibility: .unrestricted) else { return false }
                return hit.items.map(\.id) == [id]
            }
            let answers = two.server.searchMemory.answers
            let patched = try await one.client.send(.patch, "/announcements/\(id)", json: #"{"title":"Tapir day"}"#, as: .editor)
            try #require(patched.status == .ok)
            try await waitUntil("the other instance's memory has the change") {
                guard two.server.searchMemory.isReady else { return false }
                let query = try? SearchQuery.parse("tapir scales")
                return (try? await two.server.announcements.search(query!, offset: 0, limit: 10, visibility: .unrestricted))?.items.map(\.id) == [id]
            }
            #expect(two.server.searchMemory.answers > answers, "answered from the other instance's memory")
            let pangolin = try await two.server.announcements.search(try SearchQuery.parse("pangolin"), offset: 0, limit: 10, visibility: .unrestricted)
            #expect(pangolin.total == 0)

            // By hand, without a new revision: the change feed still names the domain, and the
            // comparison looks at what decides visibility, not only at revisions.
            let sql = try #require(one.server.database.database as? any SQLDatabase)
            try await sql.raw("UPDATE announcements SET status = 'draft' WHERE id = \(bind: id)").run()
            try await waitUntil("the other instance's memory hides the draft") {
                guard two.server.searchMemory.isReady, let query = try? SearchQuery.parse("tapir") else { return false }
                let before = two.server.searchMemory.answers
                let found = try? await two.server.announcements.search(query, offset: 0, limit: 10, visibility: .unrestricted)
                return found?.total == 0 && two.server.searchMemory.answers == before + 1
            }
        }
    }
}
