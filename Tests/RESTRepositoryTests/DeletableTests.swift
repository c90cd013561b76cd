import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Deletable")
struct DeletableTests {
    @Test("delete(id:) sends DELETE to the member path and accepts an empty 204")
    func deleteByID() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let notes = NotesRepository(client: makeClient(transport))

        try await notes.delete(id: 8)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .delete)
        #expect(sent.path == "/notes/8")
        #expect(sent.body == nil)
        #expect(sent.headerFields[.ifMatch] == nil)
    }

    @Test("delete of a versioned value sends its ETag as If-Match")
    func deleteVersioned() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let notes = NotesRepository(client: makeClient(transport))

        try await notes.delete(Versioned(Note(id: 8, text: "x"), etag: "\"e8\""))

        let sent = try #require(await transport.lastRequest)
        #expect(sent.path == "/notes/8")
        #expect(sent.headerFields[.ifMatch] == "\"e8\"")
    }

    @Test("deleting an unknown id throws notFound with the problem body")
    func deleteUnknown() async throws {
        let transport = MockTransport(script: [.problem(.notFound, detail: "no note 8")])
        let notes = NotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) { try await notes.delete(id: 8) }

        guard case .notFound(let details) = try #require(error) else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
        #expect(details.problem?.detail == "no note 8")
    }
}
