import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Readable")
struct ReadableTests {
    @Test("read(id:) sends GET to the member path with no body and decodes the entity")
    func readByID() async throws {
        let transport = MockTransport(script: [.json(Note(id: 2, text: "two"))])
        let notes = NotesRepository(client: makeClient(transport))

        let note = try await notes.read(id: 2)

        #expect(note == Note(id: 2, text: "two"))
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .get)
        #expect(sent.path == "/notes/2")
        #expect(sent.query.isEmpty)
        #expect(sent.body == nil)
        #expect(sent.headerFields[.contentType] == nil)
    }

    @Test("readVersioned keeps the response's ETag verbatim")
    func readKeepsETag() async throws {
        let transport = MockTransport(script: [
            .json(Note(id: 2, text: "two"), headerFields: .fields([("ETag", "W/\"abc\"")]))
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let versioned = try await notes.readVersioned(id: 2)

        #expect(versioned.etag == "W/\"abc\"")
        #expect(versioned.value.id == 2)
        #expect(versioned.text == "two")  // the value's properties read through
    }

    @Test("a string id is percent-encoded into one path segment")
    func stringIDIsEncoded() async throws {
        let transport = MockTransport(script: [.json(Note(id: 1, text: "x"))])
        let tags = TagsRepository(client: makeClient(transport))

        _ = try await tags.read(id: "a b/c")

        let sent = try #require(await transport.lastRequest)
        #expect(sent.request.path == "/tags/a%20b%2Fc")
    }

    @Test("read(page:pageSize:) sends page and per_page and reads the paging headers")
    func readPage() async throws {
        let headers = HTTPFields.fields([
            ("X-Page", "2"), ("X-Per-Page", "10"), ("X-Total", "35"),
            ("Link", "</notes?page=3&per_page=10>; rel=\"next\", </notes?page=4&per_page=10>; rel=\"last\""),
        ])
        let transport = MockTransport(script: [.json([Note(id: 11, text: "k")], headerFields: headers)])
        let notes = NotesRepository(client: makeClient(transport))

        let page = try await notes.read(page: 2, pageSize: 10)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .get)
        #expect(sent.path == "/notes")
        #expect(sent.query == [URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "per_page", value: "10")])
        #expect(page.items == [Note(id: 11, text: "k")])
        #expect(page.info.page == 2)
        #expect(page.info.pageSize == 10)
        #expect(page.info.total == 35)
        #expect(page.info.next == "/notes?page=3&per_page=10")
        #expect(page.info.last == "/notes?page=4&per_page=10")
        #expect(page.info.previous == nil)
    }

    @Test("a sorted read sends sort and order after the paging parameters and keeps the paging headers")
    func sortedReadKeepsPaging() async throws {
        let headers = HTTPFields.fields([("X-Total", "35"), ("Link", "</notes?page=2>; rel=\"next\"")])
        let transport = MockTransport(script: [.json([Note(id: 35, text: "z")], headerFields: headers)])
        let notes = NotesRepository(client: makeClient(transport))

        let page = try await notes.read(page: 1, pageSize: 10, sortedBy: .text, order: .descending)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.query == [
            URLQueryItem(name: "page", value: "1"), URLQueryItem(name: "per_page", value: "10"),
            URLQueryItem(name: "sort", value: "text"), URLQueryItem(name: "order", value: "desc"),
        ])
        #expect(page.items.map(\.id) == [35])
        #expect(page.info.total == 35)
        #expect(page.hasNext)
    }

    @Test("a sorted page sequence asks every page in the same order")
    func sortedPagesKeepOrder() async throws {
        let transport = MockTransport(script: [
            .json([Note(id: 2, text: "b")], headerFields: .fields([("Link", "</notes?page=2>; rel=\"next\"")])),
            .json([Note(id: 1, text: "a")], headerFields: .fields([("Link", "</notes?page=1>; rel=\"first\"")])),
        ])
        let notes = NotesRepository(client: makeClient(transport))

        var ids: [Int] = []
        for try await note in notes.allItems(pageSize: 1, sortedBy: .id, order: .descending) {
            ids.append(note.id)
        }

        #expect(ids == [2, 1])
        let orders = await transport.requests.map { $0.query.first { $0.name == "order" }?.value }
        #expect(orders == ["desc", "desc"])
    }

    @Test("absent or malformed paging headers give nil fields")
    func absentPagingHeaders() async throws {
        let transport = MockTransport(script: [
            .json([Note(id: 1, text: "a")], headerFields: .fields([("X-Total", "many")]))
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let page = try await notes.read(page: 1, pageSize: 5)

        #expect(page.info == PageInfo())
        #expect(page.info.pageCount == nil)
    }

    @Test("a list item that fails to decode fails the call and names its index")
    func badListItemNamesIndex() async throws {
        let transport = MockTransport(script: [
            .text(#"[{"id":1,"text":"a"},{"id":2,"text":"b"},{"id":"three","text":"c"}]"#)
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) { try await notes.read(page: 1, pageSize: 3) }

        guard case .undecodable(let details, let failure) = try #require(error) else {
            Issue.record("expected undecodable, got \(String(describing: error))")
            return
        }
        #expect(failure.index == 2)
        #expect(failure.codingPath == "[2].id")
        #expect(details.status == .ok)
    }

    @Test("a custom endpoint reuses the client's request and decoding pieces")
    func customEndpoint() async throws {
        let transport = MockTransport(script: [.json([Note(id: 5, text: "star")])])
        let notes = NotesRepository(client: makeClient(transport))

        let featured = try await notes.featured()

        #expect(featured == [Note(id: 5, text: "star")])
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .get)
        #expect(sent.request.path == "/notes/featured")
    }
}
