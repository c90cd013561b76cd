import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Spearal
import Testing

/// A note whose reads may ask for some properties; partial reads decode `PartialNote`.
extension Note: PropertySelecting {
    enum Property: String, Sendable { case text }
    typealias Partial = PartialNote
    static var remoteClassName: String { "test.Note" }
}

extension Note: SpearalClassNamed {
    static var spearalClassName: String { "test.Note" }
}

struct PartialNote: Decodable, Sendable, Equatable {
    var id: Int
    var text: String?
}

@Suite("Body coders: the same repository in JSON and in Spearal")
struct BodyCoderTests {
    private func spearalClient(_ transport: MockTransport) -> RESTClient {
        RESTClient(transport: transport, coder: SpearalBodyCoder())
    }

    @Test("with the Spearal coder a read sends Accept: application/spearal and decodes a MockTransport Spearal answer")
    func spearalRead() async throws {
        let transport = MockTransport(script: [.spearal(Note(id: 2, text: "two"), headerFields: .fields([("ETag", "\"2.1\"")]))])
        let notes = NotesRepository(client: spearalClient(transport))

        let note = try await notes.readVersioned(id: 2)

        #expect(note.value == Note(id: 2, text: "two"))
        #expect(note.etag == "\"2.1\"")
        #expect(try #require(await transport.lastRequest).headerFields[.accept] == "application/spearal")
    }

    @Test("a Spearal patch is a partial bean: absent fields are not in it, a cleared one is null")
    func spearalPatch() async throws {
        let transport = MockTransport(script: [.spearal(Note(id: 2, text: "two"))])
        let notes = NotesRepository(client: spearalClient(transport))

        _ = try await notes.patchUnconditionally(NotePatch(tag: .null), id: 2)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.contentType] == "application/spearal")
        guard case .bean(let bean) = try SpearalDecoder().decodeValue(from: try #require(sent.body)) else {
            Issue.record("the patch is not a bean")
            return
        }
        #expect(bean.definedPropertyNames == ["tag"])
        #expect(bean["tag"]?.isNull == true)
    }

    @Test("the same create works in both formats, each with its own Content-Type")
    func createInBothFormats() async throws {
        for (coder, contentType) in [(JSONBodyCoder() as any BodyCoder, "application/json"), (SpearalBodyCoder(), "application/spearal")] {
            let answer: MockResponse = contentType == "application/json" ? .json(Note(id: 9, text: "new")) : .spearal(Note(id: 9, text: "new"))
            let transport = MockTransport(script: [answer])
            let notes = NotesRepository(client: RESTClient(transport: transport, coder: coder))

            let created = try await notes.create(NoteDraft(text: "new"))

            #expect(created == Note(id: 9, text: "new"))
            #expect(try #require(await transport.lastRequest).headerFields[.contentType] == contentType)
        }
    }

    @Test("a read with fields asks by ?fields= in JSON and by a filter header in Spearal, and decodes the partial type")
    func fieldSelection() async throws {
        let json = MockTransport(script: [.text(#"{"id":2,"text":"two"}"#)])
        let spearal = MockTransport(script: [.spearal(PartialNoteBean(id: 2))])

        let fromJSON = try await NotesRepository(client: makeClient(json)).read(id: 2, fields: [.text])
        let fromSpearal = try await NotesRepository(client: spearalClient(spearal)).read(id: 2, fields: [.text])

        let jsonRequest = try #require(await json.lastRequest)
        let spearalRequest = try #require(await spearal.lastRequest)
        #expect(jsonRequest.query.map(\.name) == ["fields"] && jsonRequest.query.first?.value == "text")
        #expect(spearalRequest.headerFields[values: HTTPField.Name("Spearal-PropertyFilter")!] == ["test.Note#text"])
        #expect(spearalRequest.query.isEmpty)
        #expect(fromJSON == PartialNote(id: 2, text: "two"))
        #expect(fromSpearal == PartialNote(id: 2, text: nil))
    }

    @Test("an undecodable Spearal answer is RepositoryError.undecodable, not a crash")
    func undecodable() async throws {
        let transport = MockTransport(script: [MockResponse(headerFields: .fields([("Content-Type", "application/spearal")]), body: Data([0xF3]))])
        let notes = NotesRepository(client: spearalClient(transport))

        let error = await #expect(throws: RepositoryError.self) { try await notes.read(id: 2) }

        guard case .undecodable = try #require(error) else {
            Issue.record("expected undecodable, got \(String(describing: error))")
            return
        }
    }
}

/// A filtered server's answer: a bean carrying the id only.
private struct PartialNoteBean: Encodable, SpearalClassNamed {
    static let spearalClassName = "test.Note"
    var id: Int
}
