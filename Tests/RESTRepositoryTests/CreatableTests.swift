import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Creatable")
struct CreatableTests {
    @Test("create sends POST to the collection with the draft as JSON and returns the created entity")
    func createSendsDraft() async throws {
        let transport = MockTransport(script: [
            .json(Note(id: 7, text: "hello"), status: .created, headerFields: .fields([("ETag", "\"v1\"")]))
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let created = try await notes.create(NoteDraft(text: "hello"))

        #expect(created == Note(id: 7, text: "hello"))
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .post)
        #expect(sent.path == "/notes")
        #expect(sent.query.isEmpty)
        #expect(sent.headerFields[.contentType] == "application/json")
        #expect(try sent.bodyJSON() == ["text": "hello"])
    }

    @Test("createVersioned keeps the ETag of the 201 answer")
    func createKeepsETag() async throws {
        let transport = MockTransport(script: [
            .json(Note(id: 7, text: "hello"), status: .created, headerFields: .fields([("ETag", "\"v1\"")]))
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let created = try await notes.createVersioned(NoteDraft(text: "hello"))

        #expect(created == Versioned(Note(id: 7, text: "hello"), etag: "\"v1\""))
    }

    @Test("create with several drafts sends one POST with a JSON array")
    func bulkCreateSendsArray() async throws {
        let transport = MockTransport(script: [
            .json([Note(id: 1, text: "a"), Note(id: 2, text: "b")], status: .created)
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let created = try await notes.create([NoteDraft(text: "a"), NoteDraft(text: "b")])

        #expect(created.map(\.id) == [1, 2])
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .post)
        #expect(sent.path == "/notes")
        #expect(try sent.bodyJSON() == [["text": "a"], ["text": "b"]])
    }

    @Test("a 422 answer becomes unprocessable with the problem's field errors")
    func unprocessableCarriesFieldErrors() async throws {
        let transport = MockTransport(script: [
            .problem(.unprocessableContent, title: "Invalid", fieldErrors: [("text", "must not be empty")])
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) {
            try await notes.create(NoteDraft(text: ""))
        }

        guard case .unprocessable(let details, let fieldErrors) = try #require(error) else {
            Issue.record("expected unprocessable, got \(String(describing: error))")
            return
        }
        #expect(fieldErrors == [ProblemDetails.FieldError(field: "text", message: "must not be empty")])
        #expect(details.status == .unprocessableContent)
        #expect(details.problem?.title == "Invalid")
    }
}
