import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("PageSequence")
struct PageSequenceTests {
    /// A server of `count` notes that answers `page`/`per_page` with Grape-style headers.
    private static func server(count: Int, sendLinks: Bool, sendTotal: Bool) -> MockTransport {
        MockTransport { request in
            let query = request.queryDictionary
            let page = Int(query["page"] ?? "") ?? 1
            let size = Int(query["per_page"] ?? "") ?? 10
            let start = (page - 1) * size
            let items = (start..<min(start + size, count)).map { Note(id: $0 + 1, text: "n\($0 + 1)") }
            var fields: [(String, String)] = [("X-Page", "\(page)"), ("X-Per-Page", "\(size)")]
            if sendTotal { fields.append(("X-Total", "\(count)")) }
            if sendLinks {
                var links = ["</notes?page=1&per_page=\(size)>; rel=\"first\""]
                if start + size < count { links.append("</notes?page=\(page + 1)&per_page=\(size)>; rel=\"next\"") }
                fields.append(("Link", links.joined(separator: ", ")))
            }
            return .json(items, headerFields: .fields(fields))
        }
    }

    @Test("walks every page following the Link header and stops after the last", arguments: [true, false])
    func walksPages(sendTotal: Bool) async throws {
        let transport = Self.server(count: 7, sendLinks: true, sendTotal: sendTotal)
        let notes = NotesRepository(client: makeClient(transport))

        var sizes: [Int] = []
        for try await page in notes.pages(pageSize: 3) {
            sizes.append(page.items.count)
        }

        #expect(sizes == [3, 3, 1])
        let pages = await transport.requests.map { $0.queryDictionary["page"] }
        #expect(pages == ["1", "2", "3"])
    }

    @Test("without Link, X-Total decides when to stop, even on an exact multiple")
    func totalDecides() async throws {
        let transport = Self.server(count: 6, sendLinks: false, sendTotal: true)
        let notes = NotesRepository(client: makeClient(transport))

        var count = 0
        for try await _ in notes.pages(pageSize: 3) { count += 1 }

        #expect(count == 2)
        #expect(await transport.requests.count == 2)
    }

    @Test("with no paging headers, a short or empty page ends the walk")
    func noHeaders() async throws {
        let transport = Self.server(count: 6, sendLinks: false, sendTotal: false)
        let notes = NotesRepository(client: makeClient(transport))

        var ids: [Int] = []
        for try await note in notes.allItems(pageSize: 3) { ids.append(note.id) }

        #expect(ids == [1, 2, 3, 4, 5, 6])
        #expect(await transport.requests.count == 3)
    }

    @Test("the item sequence yields every item of every page in order")
    func everyItem() async throws {
        let transport = Self.server(count: 25, sendLinks: true, sendTotal: true)
        let notes = NotesRepository(client: makeClient(transport))

        var ids: [Int] = []
        for try await note in notes.allItems(pageSize: 10) { ids.append(note.id) }

        #expect(ids == Array(1...25))
    }

    @Test("an empty list yields no page")
    func emptyList() async throws {
        let transport = Self.server(count: 0, sendLinks: true, sendTotal: true)
        let notes = NotesRepository(client: makeClient(transport))

        var count = 0
        for try await _ in notes.pages(pageSize: 10) { count += 1 }

        #expect(count == 0)
    }

    @Test("an error on a later page ends the walk by throwing")
    func errorThrows() async throws {
        let transport = MockTransport(script: [
            .json([Note(id: 1, text: "a")], headerFields: .fields([("Link", "</n?page=2>; rel=\"next\"")])),
            .problem(.internalServerError),
        ])
        let notes = NotesRepository(client: makeClient(transport))
        var seen: [Int] = []

        await #expect(throws: RepositoryError.self) {
            for try await note in notes.allItems(pageSize: 1) { seen.append(note.id) }
        }

        #expect(seen == [1])
    }
}
