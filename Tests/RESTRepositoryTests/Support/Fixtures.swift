import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting

/// A member of the test collection `/notes`.
struct Note: Codable, Sendable, Equatable, Identifiable {
    var id: Int
    var text: String
}

/// What creating or replacing a note sends: no id.
struct NoteDraft: Codable, Sendable, Equatable {
    var text: String
}

/// A partial change to a note.
struct NotePatch: Encodable, Sendable {
    var text: RequiredPatchField<String> = .absent
    var tag: PatchField<String> = .absent

    private enum CodingKeys: String, CodingKey { case text, tag }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(tag, forKey: .tag)
    }
}

/// A repository adopting every collection verb.
struct NotesRepository: Creatable, Sortable, Updatable, Patchable, Deletable {
    enum SortField: String, Sendable { case id, text }

    typealias ID = Int
    typealias Entity = Note
    typealias Draft = NoteDraft
    typealias Replacement = NoteDraft
    typealias Patch = NotePatch

    let client: RESTClient
    let path = "/notes"

    /// A custom endpoint in two lines: `GET /notes/featured`.
    func featured() async throws -> [Note] {
        try await client.list(RESTRequest(.get, path: path + "/featured"))
    }
}

/// A repository that can only write, so it cannot fetch the current version after a 412.
struct WriteOnlyNotesRepository: Updatable {
    typealias ID = Int
    typealias Entity = Note
    typealias Replacement = NoteDraft

    let client: RESTClient
    let path = "/notes"
}

/// A collection keyed by strings, to check id encoding in paths.
struct TagsRepository: Readable {
    typealias ID = String
    typealias Entity = Note

    let client: RESTClient
    let path = "/tags"
}

/// A singleton resource like `/users/me`.
struct ProfileRepository: SingleReadable, SingleUpdatable, SingleDeletable {
    typealias Entity = Note
    typealias Replacement = NoteDraft

    let client: RESTClient
    let path = "/users/me"
}

extension HTTPFields {
    /// Header fields from name/value pairs, for terse test setup.
    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        return fields
    }
}

/// A client over a mock transport.
func makeClient(_ transport: MockTransport) -> RESTClient {
    RESTClient(transport: transport)
}
