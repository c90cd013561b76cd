import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("AnnouncementPatch")
struct AnnouncementPatchTests {
    /// The patch as parsed JSON (the encoder's key order varies between runs on Linux).
    private func json(_ patch: AnnouncementPatch) throws -> JSONValue {
        try JSONValue(parsing: IntranetJSON.encoder().encode(patch))
    }

    @Test("each combination of title and body encodes to exactly the mentioned keys", arguments: [
        (AnnouncementPatch(), "{}"),
        (AnnouncementPatch(title: "A"), #"{"title":"A"}"#),
        (AnnouncementPatch(body: .null), #"{"body":null}"#),
        (AnnouncementPatch(body: .value("<p>x</p>")), #"{"body":"<p>x</p>"}"#),
        (AnnouncementPatch(title: "A", body: .null), #"{"title":"A","body":null}"#),
    ])
    func encoding(patch: AnnouncementPatch, expected: String) throws {
        #expect(try json(patch) == JSONValue(parsing: Data(expected.utf8)))
    }

    @Test("a nil title means leave it alone, never null")
    func nilTitleIsAbsent() throws {
        let patch = AnnouncementPatch(title: nil, body: .value("b"))

        #expect(patch.title == .absent)
        #expect(try json(patch) == ["body": "b"])
    }
}
