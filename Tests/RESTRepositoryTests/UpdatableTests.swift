import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Updatable")
struct UpdatableTests {
    @Test("updateUnconditionally(_:id:) sends PUT to the path of the given id with the replacement as JSON and no If-Match")
    func updateUsesID() async throws {
        let transport = MockTransport(script: [.json(Note(id: 9, text: "new"))])
        let notes = NotesRepository(client: makeClient(transport))

        let updated = try await notes.updateUnconditionally(NoteDraft(text: "new"), id: 9)

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

    @Test("a 412 comes back as a VersionConflict whose current member is typed")
    func conflictCarriesCurrentVersion() async throws {
        let transport = MockTransport(script: [
            .problem(.preconditionFailed, title: "Precondition Failed"),
            .json(Note(id: 4, text: "theirs"), headerFields: .fields([("ETag", "\"v7\"")])),
        ])
        let notes = NotesRepository(client: makeClient(transport))
        let stale = Versioned(Note(id: 4, text: "mine"), etag: "\"v1\"")

        let conflict = await #expect(throws: VersionConflict<Note>.self) {
            try await notes.update(NoteDraft(text: "mine again"), of: stale)
        }

        let error = try #require(conflict)
        #expect(error.response.status == .preconditionFailed)
        #expect(error.current?.text == "theirs")
        #expect(error.current?.etag == "\"v7\"")
        guard case .preconditionFailed = error.repositoryError else {
            Issue.record("expected the untyped form to be preconditionFailed")
            return
        }
        let requests = await transport.requests
        #expect(requests.map(\.method) == [.put, .get])
        #expect(requests.last?.path == "/notes/4")
    }

    @Test("a write called through a generic Updatable still reports the typed conflict")
    func conflictThroughGenericContext() async throws {
        func rename<Notes: Updatable>(_ notes: Notes, id: Notes.ID) async throws -> Notes.Entity where Notes.Replacement == NoteDraft {
            try await notes.update(NoteDraft(text: "renamed"), id: id, ifMatch: "\"old\"")
        }
        let transport = MockTransport(script: [.problem(.preconditionFailed), .json(Note(id: 4, text: "theirs"))])

        let conflict = await #expect(throws: VersionConflict<Note>.self) {
            _ = try await rename(NotesRepository(client: makeClient(transport)), id: 4)
        }

        #expect(conflict?.current?.text == "theirs")
    }

    @Test("a conflict's current version is nil when the member is gone by the time it is read again")
    func conflictWithDeletedMember() async throws {
        let transport = MockTransport(script: [.problem(.preconditionFailed), .problem(.notFound)])
        let notes = NotesRepository(client: makeClient(transport))

        let conflict = await #expect(throws: VersionConflict<Note>.self) {
            try await notes.update(NoteDraft(text: "x"), id: 4, ifMatch: "\"old\"")
        }

        #expect(conflict != nil)
        #expect(conflict?.current == nil)
    }

    @Test("update(_:of:) without an ETag is refused and sends nothing")
    func updateWithoutETagRefused() async throws {
        let transport = MockTransport(script: [.json(Note(id: 4, text: "v2"))])
        let notes = NotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) {
            try await notes.update(NoteDraft(text: "v2"), of: Versioned(Note(id: 4, text: "v1"), etag: nil))
        }

        guard case .missingETag = try #require(error) else {
            Issue.record("expected missingETag, got \(String(describing: error))")
            return
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("a 412 on a repository that cannot read is the untyped preconditionFailed, with no second request")
    func conflictWithoutReadable() async throws {
        let transport = MockTransport(script: [.problem(.preconditionFailed)])
        let notes = WriteOnlyNotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) {
            try await notes.update(NoteDraft(text: "x"), id: 4, ifMatch: "\"old\"")
        }

        guard case .preconditionFailed(let details) = try #require(error) else {
            Issue.record("expected preconditionFailed, got \(String(describing: error))")
            return
        }
        #expect(details.status == .preconditionFailed)
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
