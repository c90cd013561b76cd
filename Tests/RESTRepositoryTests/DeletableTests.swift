import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Deletable")
struct DeletableTests {
    @Test("deleteUnconditionally(id:) sends DELETE to the member path without If-Match and accepts an empty 204")
    func deleteByID() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let notes = NotesRepository(client: makeClient(transport))

        try await notes.deleteUnconditionally(id: 8)

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

    @Test("deleting a versioned value without an ETag is refused and sends nothing")
    func deleteWithoutETagRefused() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let notes = NotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) {
            try await notes.delete(Versioned(Note(id: 8, text: "x"), etag: nil))
        }

        guard case .missingETag = try #require(error) else {
            Issue.record("expected missingETag, got \(String(describing: error))")
            return
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("a 412 to a delete is a typed VersionConflict with the member as it is now")
    func deleteConflictIsTyped() async throws {
        let transport = MockTransport(script: [
            .problem(.preconditionFailed),
            .json(Note(id: 8, text: "theirs"), headerFields: .fields([("ETag", "\"e9\"")])),
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let conflict = await #expect(throws: VersionConflict<Note>.self) {
            try await notes.delete(Versioned(Note(id: 8, text: "mine"), etag: "\"e8\""))
        }

        #expect(conflict?.current?.text == "theirs")
        #expect(conflict?.current?.etag == "\"e9\"")
    }

    @Test("deleting an unknown id throws notFound with the problem body")
    func deleteUnknown() async throws {
        let transport = MockTransport(script: [.problem(.notFound, detail: "no note 8")])
        let notes = NotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) { try await notes.delete(id: 8, ifMatch: "*") }

        guard case .notFound(let details) = try #require(error) else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
        #expect(details.problem?.detail == "no note 8")
    }
}
