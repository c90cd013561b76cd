import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Single-entity repositories")
struct SingleEntityRepositoryTests {
    @Test("read() sends GET to the singleton path")
    func readSingleton() async throws {
        let transport = MockTransport(script: [.json(Note(id: 1, text: "me"))])
        let profile = ProfileRepository(client: makeClient(transport))

        let me = try await profile.read()

        #expect(me == Note(id: 1, text: "me"))
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .get)
        #expect(sent.request.path == "/users/me")
    }

    @Test("readVersioned() keeps the singleton's ETag")
    func readVersionedSingleton() async throws {
        let transport = MockTransport(script: [.json(Note(id: 1, text: "me"), headerFields: .fields([("ETag", "\"m1\"")]))])
        let profile = ProfileRepository(client: makeClient(transport))

        let me = try await profile.readVersioned()

        #expect(me == Versioned(Note(id: 1, text: "me"), etag: "\"m1\""))
        #expect(await transport.lastRequest?.request.path == "/users/me")
    }

    @Test("update(_:) sends PUT to the singleton path with the replacement")
    func updateSingleton() async throws {
        let transport = MockTransport(script: [.json(Note(id: 1, text: "renamed"))])
        let profile = ProfileRepository(client: makeClient(transport))

        let me = try await profile.update(NoteDraft(text: "renamed"), ifMatch: "\"p1\"")

        #expect(me.text == "renamed")
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .put)
        #expect(sent.request.path == "/users/me")
        #expect(sent.headerFields[.ifMatch] == "\"p1\"")
        #expect(try sent.bodyJSON() == ["text": "renamed"])
    }

    @Test("delete() sends DELETE to the singleton path and ignores an answer body")
    func deleteSingleton() async throws {
        let transport = MockTransport(script: [.text("{\"bye\":true}")])
        let profile = ProfileRepository(client: makeClient(transport))

        try await profile.delete()

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .delete)
        #expect(sent.request.path == "/users/me")
    }
}
