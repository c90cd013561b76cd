import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Announcement readers")
struct AnnouncementReadersTests {
    private static func detail(readers: String?) -> MockResponse {
        let extra = readers.map { #","readers":\#($0)"# } ?? ""
        return .text(#"{"id":4,"title":"Pay day","body":null,"createdAt":"2026-11-21T09:30:00.000Z","updatedAt":"2026-11-21T09:30:00.000Z"\#(extra)}"#)
    }

    @Test("a 2.0 detail read by an editor decodes readers; a reader's detail has none", arguments: [
        ("[2,7]", AnnouncementReaders.only([2, 7]) as AnnouncementReaders?),
        ("null", .everyone),
        (nil, nil),
    ])
    func decodesReaders(json: String?, expected: AnnouncementReaders?) async throws {
        let transport = MockTransport(script: [Self.detail(readers: json)])
        let intranet = makeIntranet(transport, version: .v2_0)

        let announcement = try await intranet.announcements.read(id: 4)

        #expect(announcement.readers == expected)
        #expect(announcement.title == "Pay day")
    }

    @Test("a draft with readers sends them; one without sends no readers key")
    func draftReaders() async throws {
        let transport = MockTransport(script: [Self.detail(readers: "[2]"), Self.detail(readers: nil)])
        let intranet = makeIntranet(transport, version: .v2_0)

        let restricted = try await intranet.announcements.create(AnnouncementDraft(title: "Pay day", readers: .only([2])))
        _ = try await intranet.announcements.create(AnnouncementDraft(title: "Pay day"))

        let bodies = try await transport.requests.map { try $0.bodyJSON() }
        #expect(bodies == [["title": "Pay day", "body": nil, "readers": [2]], ["title": "Pay day", "body": nil]])
        #expect(restricted.readers == .only([2]))
    }

    @Test("a patch can open an announcement to everyone (null) or leave readers alone")
    func patchReaders() async throws {
        let transport = MockTransport(script: [Self.detail(readers: "null"), Self.detail(readers: nil)])
        let intranet = makeIntranet(transport, version: .v2_0)

        _ = try await intranet.announcements.patchUnconditionally(AnnouncementPatch(readers: .everyone), id: 4)
        _ = try await intranet.announcements.patchUnconditionally(AnnouncementPatch(title: "T"), id: 4)

        let bodies = try await transport.requests.map { try $0.bodyJSON() }
        #expect(bodies == [["readers": nil], ["title": "T"]])
    }

    @Test("an announcement encodes readers only when it has them")
    func encodesReaders() throws {
        let open = Announcement(id: 1, title: "A", body: nil, readers: .everyone)
        let unknown = Announcement(id: 1, title: "A", body: nil)

        let encodedOpen = try JSONValue(parsing: IntranetJSON.encoder().encode(open))
        let encodedUnknown = try JSONValue(parsing: IntranetJSON.encoder().encode(unknown))

        #expect(encodedOpen == ["id": 1, "title": "A", "body": nil, "readers": nil])
        #expect(encodedUnknown == ["id": 1, "title": "A", "body": nil])
    }
}
