import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Updatable")
struct UpdatableTests {
    @Test("update(_:id:) sends PUT to the path of the given id with the replacement as JSON")
    func updateUsesID() async throws {
        let transport = MockTransport(script: [.json(Note(id: 9, text: "new"))])
        let notes = NotesRepository(client: makeClient(transport))

        let updated = try await notes.update(NoteDraft(text: "new"), id: 9)

        #expect(updated == Note(id: 9, text: "new"))
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .put)
        #expect(sent.path == "/notes/9")
        #expect(sent.headerFields[.contentType] == "application/json")
        #expect(sent.headerFields[.ifMatch] == nil)
        #expect(try sent.bodyJSON() == ["text": "new"])
    }

    @Test("update(_:id:ifMatch:) sends the entity tag as If-Match")
    func updateSendsIfMatch() async throws {
        let transport = MockTransport(script: [.json(Note(id: 9, text: "new"))])
        let notes = NotesRepository(client: makeClient(transport))

        _ = try await notes.update(NoteDraft(text: "new"), id: 9, ifMatch: "\"v3\"")

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.ifMatch] == "\"v3\"")
    }

    @Test("update(_:of:) sends the ETag read earlier and returns the new one")
    func updateOfVersioned() async throws {
        let transport = MockTransport(script: [
            .json(Note(id: 4, text: "v2"), headerFields: .fields([("ETag", "\"v2\"")]))
        ])
        let notes = NotesRepository(client: makeClient(transport))
        let current = Versioned(Note(id: 4, text: "v1"), etag: "\"v1\"")

        let updated = try await notes.update(NoteDraft(text: "v2"), of: current)

        #expect(updated == Versioned(Note(id: 4, text: "v2"), etag: "\"v2\""))
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .put)
        #expect(sent.path == "/notes/4")
        #expect(sent.headerFields[.ifMatch] == "\"v1\"")
    }

    @Test("a 412 comes back as preconditionFailed carrying the server's current version")
    func conflictCarriesCurrentVersion() async throws {
        let transport = MockTransport(script: [
            .problem(.preconditionFailed, title: "Precondition Failed"),
            .json(Note(id: 4, text: "theirs"), headerFields: .fields([("ETag", "\"v7\"")])),
        ])
        let notes = NotesRepository(client: makeClient(transport))
        let stale = Versioned(Note(id: 4, text: "mine"), etag: "\"v1\"")

        let error = await #expect(throws: RepositoryError.self) {
            try await notes.update(NoteDraft(text: "mine again"), of: stale)
        }

        guard case .preconditionFailed(let details, let current) = try #require(error) else {
            Issue.record("expected preconditionFailed, got \(String(describing: error))")
            return
        }
        #expect(details.status == .preconditionFailed)
        let server = try #require(current)
        #expect(server.etag == "\"v7\"")
        #expect(server.value(as: Note.self) == Note(id: 4, text: "theirs"))
        let requests = await transport.requests
        #expect(requests.map(\.method) == [.put, .get])
        #expect(requests.last?.path == "/notes/4")
    }

    @Test("a 412 on a repository that cannot read has no current version")
    func conflictWithoutReadable() async throws {
        let transport = MockTransport(script: [.problem(.preconditionFailed)])
        let notes = WriteOnlyNotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) {
            try await notes.update(NoteDraft(text: "x"), id: 4, ifMatch: "\"old\"")
        }

        guard case .preconditionFailed(_, let current) = try #require(error) else {
            Issue.record("expected preconditionFailed, got \(String(describing: error))")
            return
        }
        #expect(current == nil)
        #expect(await transport.requests.count == 1)
    }

    @Test("update with several replacements sends one PUT to the collection with a JSON array")
    func bulkUpdateSendsArray() async throws {
        let transport = MockTransport(script: [.json([Note(id: 1, text: "a"), Note(id: 2, text: "b")])])
        let notes = NotesRepository(client: makeClient(transport))

        let updated = try await notes.update([NoteDraft(text: "a"), NoteDraft(text: "b")])

        #expect(updated.count == 2)
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .put)
        #expect(sent.path == "/notes")
        #expect(try sent.bodyJSON() == [["text": "a"], ["text": "b"]])
    }
}
