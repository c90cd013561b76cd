import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Patchable")
struct PatchableTests {
    @Test("patch sends PATCH with application/merge-patch+json, If-Match and only the mentioned fields")
    func patchSendsMergePatch() async throws {
        let transport = MockTransport(script: [.json(Note(id: 3, text: "new"))])
        let notes = NotesRepository(client: makeClient(transport))

        let patched = try await notes.patch(NotePatch(text: .value("new")), id: 3, ifMatch: "\"1\"")

        #expect(patched == Note(id: 3, text: "new"))
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .patch)
        #expect(sent.path == "/notes/3")
        #expect(sent.headerFields[.contentType] == "application/merge-patch+json")
        #expect(sent.headerFields[.ifMatch] == "\"1\"")
        #expect(try sent.bodyJSON() == ["text": "new"])
    }

    @Test("patchUnconditionally sends no If-Match")
    func patchUnconditionally() async throws {
        let transport = MockTransport(script: [.json(Note(id: 3, text: "new"))])
        let notes = NotesRepository(client: makeClient(transport))

        _ = try await notes.patchUnconditionally(NotePatch(text: .value("new")), id: 3)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.ifMatch] == nil)
    }

    @Test("patch(_:of:) without an ETag is refused and sends nothing")
    func patchWithoutETagRefused() async throws {
        let transport = MockTransport(script: [.json(Note(id: 3, text: "b"))])
        let notes = NotesRepository(client: makeClient(transport))

        let error = await #expect(throws: RepositoryError.self) {
            try await notes.patch(NotePatch(text: .value("b")), of: Versioned(Note(id: 3, text: "a"), etag: nil))
        }

        guard case .missingETag = try #require(error) else {
            Issue.record("expected missingETag, got \(String(describing: error))")
            return
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("clearing a field sends null while leaving it alone sends no key")
    func clearVersusLeave() async throws {
        let transport = MockTransport(script: [.json(Note(id: 3, text: "a")), .json(Note(id: 3, text: "a"))])
        let notes = NotesRepository(client: makeClient(transport))

        _ = try await notes.patchUnconditionally(NotePatch(tag: .null), id: 3)
        _ = try await notes.patchUnconditionally(NotePatch(), id: 3)

        let requests = await transport.requests
        #expect(requests.first?.bodyText == #"{"tag":null}"#)
        #expect(requests.last?.bodyText == "{}")
    }

    @Test("patch(_:of:) sends If-Match and returns the new ETag")
    func patchOfVersioned() async throws {
        let transport = MockTransport(script: [
            .json(Note(id: 3, text: "b"), headerFields: .fields([("ETag", "\"2\"")]))
        ])
        let notes = NotesRepository(client: makeClient(transport))

        let patched = try await notes.patch(NotePatch(text: .value("b")), of: Versioned(Note(id: 3, text: "a"), etag: "\"1\""))

        #expect(patched.etag == "\"2\"")
        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.ifMatch] == "\"1\"")
        #expect(sent.path == "/notes/3")
    }
}
