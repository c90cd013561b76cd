import Foundation
import HTTPTypes
import HummingbirdTesting
import Spearal
import Testing
@testable import IntranetServer

/// API 3.0's publishing: drafts, the editors' status lists, what each version shows, and
/// properties a write does not send keeping their values.
@Suite("Publishing: drafts, status lists, shapes")
struct PublishingTests {
    static let v3ListKeys: Set<String> = [
        "id", "title", "createdAt", "updatedAt", "status", "publishAt", "expiresAt", "pinned", "pinnedUntil", "important", "acknowledgement",
    ]
    static let v2DetailKeys: Set<String> = ["id", "title", "body", "createdAt", "updatedAt"]
    static let publishingKeys: Set<String> = ["status", "publishAt", "expiresAt", "pinned", "pinnedUntil", "important", "acknowledgement"]
    /// A 3.0 detail's keys for a reader: 2.0's, the publishing ones, and its attachments.
    static let v3DetailKeys = v2DetailKeys.union(publishingKeys).union(["attachments"])

    @Test("a draft is seen by editors and admins only: 404 to readers and signed out in every version, absent from their lists, totals and pages", arguments: TestStorage.all)
    func drafts(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Budget 2027 (draft)","status":"draft"}"#)
            let paths = VisibilityProbe.everyPath(of: id, search: "budget")
            try await paths.warm(on: server, client)
            try await paths.expect(client, showing: id, false, total: 6, "a draft")
            for version in ["1.0", "2.0", "3.0"] {
                #expect(try await client.send(.get, "/announcements/\(id)", version: version, as: .otherReader).status == .notFound)
            }
            for caller in [Caller.editor, .admin] {
                let detail = try await client.send(.get, "/announcements/\(id)", as: caller)
                #expect(detail.status == .ok && (try? detail.object()["status"] as? String) == "draft")
            }
            #expect(try await client.send(.get, "/announcements?status=draft", as: .editor).ids() == [id])

            #expect(try await client.send(.patch, "/announcements/\(id)", json: #"{"status":"published"}"#).status == .ok)
            try await paths.expect(client, showing: id, true, total: 7, "published")
            try await paths.warm(on: server, client)
            #expect(try await client.send(.patch, "/announcements/\(id)", json: #"{"status":"draft"}"#).status == .ok)
            try await paths.expect(client, showing: id, false, total: 6, "a draft again")
        }
    }

    @Test("?status=draft|scheduled|expired lists for editors and admins what readers cannot see, each with its total; 403 for a reader, 401 signed out, 400 for any other value", arguments: TestStorage.all)
    func statusLists(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let draft = try await client.createAnnouncement(#"{"title":"Draft for later","status":"draft","publishAt":"2098-01-01T00:00:00Z"}"#)
            let scheduled = try await client.createAnnouncement(#"{"title":"Next century","publishAt":"2099-01-01T00:00:00Z"}"#)
            let expired = try await client.createAnnouncement(#"{"title":"Old news","publishAt":"2001-01-01T00:00:00Z","expiresAt":"2002-01-01T00:00:00Z"}"#)
            let expiredDraft = try await client.createAnnouncement(#"{"title":"Never sent","status":"draft","expiresAt":"2002-01-01T00:00:00Z"}"#)
            let live = try await client.createAnnouncement(#"{"title":"Live with an end","publishAt":"2001-01-01T00:00:00Z","expiresAt":"2099-01-01T00:00:00Z"}"#)

            for caller in [Caller.editor, .admin] {
                for (status, ids) in [("draft", [draft, expiredDraft]), ("scheduled", [scheduled]), ("expired", [expired])] {
                    let list = try await client.send(.get, "/announcements?status=\(status)", as: caller)
                    #expect(list.status == .ok)
                    #expect(try list.ids() == ids, "\(status)")
                    #expect(list.headers[.total] == String(ids.count), "\(status)")
                    #expect(try list.objects().allSatisfy { Set($0.keys) == Self.v3ListKeys })
                }
            }
            let oldShape = try await client.send(.get, "/announcements?status=draft", version: "1.0", as: .editor)
            #expect(try oldShape.ids() == [draft, expiredDraft] && oldShape.objects().allSatisfy { Set($0.keys) == ["id", "title", "body"] })
            let secondPage = try await client.send(.get, "/announcements?status=draft&max=1&offset=1", as: .editor)
            #expect(try secondPage.ids() == [expiredDraft] && secondPage.headers[.total] == "2")
            for caller in [Caller.anonymous, .reader] {
                let list = try await client.send(.get, "/announcements?max=100", as: caller)
                #expect(try list.ids() == [1, 2, 3, 4, 5, 6, live] && list.headers[.total] == "7")
            }

            for status in ["draft", "scheduled", "expired"] {
                #expect(try await client.send(.get, "/announcements?status=\(status)", as: .reader).status == .forbidden, "\(status)")
                #expect(try await client.send(.get, "/announcements?status=\(status)", as: .anonymous).status == .unauthorized, "\(status)")
            }
            for value in ["live", "published", "DRAFT", "", "draft,expired", "archived"] {
                let answer = try await client.send(.get, "/announcements?status=\(value)", as: .editor)
                #expect(answer.status == .badRequest, "status=\(value)")
                #expect((try? answer.object()["detail"] as? String)?.contains("status") == true, "status=\(value)")
            }
            #expect(try await client.send(.get, "/announcements?status=draft&status=expired", as: .editor).status == .badRequest)
        }
    }

    @Test("1.0 and 2.0 keep their exact shapes; 3.0 (the default) adds the publishing keys, and readers, audience and markdown for editors only", arguments: TestStorage.all)
    func shapes(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement("""
                {"title":"Pinned for the reader","readers":[3],"audience":{"departments":["IT"]},"pinned":true,"important":true,\
                "publishAt":"2001-01-01T00:00:00Z","expiresAt":"2099-01-01T00:00:00Z","pinnedUntil":"2099-01-01T00:00:00Z"}
                """)
            let latest = try await client.send(.get, "/announcements", as: .reader)
            #expect(latest.headers[.apiVersion] == "3.0")
            #expect(try latest.ids().first == id, "pinned first")
            #expect(try latest.objects().allSatisfy { Set($0.keys) == Self.v3ListKeys })
            let item = try #require(try latest.objects().first)
            #expect(item["pinned"] as? Bool == true && item["important"] as? Bool == true && item["status"] as? String == "published")
            #expect(item["publishAt"] as? String == "2001-01-01T00:00:00.000Z" && item["pinnedUntil"] as? String == "2099-01-01T00:00:00.000Z")
            #expect(try latest.objects().last?["publishAt"] is NSNull)

            for caller in [Caller.reader, .editor] {
                let v1 = try await client.send(.get, "/announcements", version: "1.0", as: caller)
                let v2 = try await client.send(.get, "/announcements", version: "2.0", as: caller)
                #expect(try v1.objects().allSatisfy { Set($0.keys) == ["id", "title", "body"] })
                #expect(try v2.objects().allSatisfy { Set($0.keys) == ["id", "title"] })
                #expect(try v1.ids() == Array(1...6) + [id] && v2.ids() == Array(1...6) + [id], "no pinned first before 3.0")
                #expect(try Set(await client.send(.get, "/announcements/\(id)", version: "1.0", as: caller).object().keys) == ["id", "title", "body"])
            }
            #expect(try Set(await client.send(.get, "/announcements/\(id)", version: "2.0", as: .reader).object().keys) == Self.v2DetailKeys)
            let editorV2 = try await client.send(.get, "/announcements/\(id)", version: "2.0", as: .editor).object()
            #expect(Set(editorV2.keys) == Self.v2DetailKeys.union(["readers"]) && editorV2["readers"] as? [Int] == [3])

            let readerV3 = try await client.send(.get, "/announcements/\(id)", as: .reader)
            #expect(readerV3.headers[.apiVersion] == "3.0")
            #expect(try Set(readerV3.object().keys) == Self.v3DetailKeys)
            for caller in [Caller.editor, .admin] {
                let detail = try await client.send(.get, "/announcements/\(id)", version: "3.0", as: caller).object()
                #expect(Set(detail.keys) == Self.v3DetailKeys.union(["readers", "audience", "markdown"]))
                #expect(detail["readers"] as? [Int] == [3])
                let audience = try #require(detail["audience"] as? [String: Any])
                #expect(audience["departments"] as? [String] == ["IT"] && audience["teams"] as? [Int] == [])
                #expect(detail["expiresAt"] as? String == "2099-01-01T00:00:00.000Z")
            }
            let open = try await client.send(.get, "/announcements/2", as: .editor).object()
            #expect(open["readers"] is NSNull && open["audience"] is NSNull && open["status"] as? String == "published")
            #expect(open["publishAt"] is NSNull && open["expiresAt"] is NSNull && open["pinned"] as? Bool == false)

            // Spearal carries the same keys.
            let spearal: HTTPFields = [.accept: "application/spearal"]
            let beans = try await client.send(.get, "/announcements", headers: spearal, as: .reader).beans()
            #expect(beans.map(\.names) == Array(repeating: Self.v3ListKeys, count: 7))
            let editorBean = try await client.send(.get, "/announcements/\(id)", headers: spearal, as: .editor).bean()
            #expect(editorBean.names == Self.v3DetailKeys.union(["readers", "audience", "markdown"]))
            #expect(try await client.send(.get, "/announcements/\(id)", version: "2.0", headers: spearal, as: .reader).bean().names == Self.v2DetailKeys)

            let unknown = try await client.send(.get, "/announcements", version: "4.0")
            #expect(unknown.status == .notAcceptable && (try? unknown.object()["supportedVersions"] as? [String]) == ["1.0", "2.0", "3.0"])
        }
    }

    @Test("a write that does not send a property keeps it (PATCH, PUT, an old 1.0 app's PUT, Spearal); null clears a time and the audience", arguments: TestStorage.all)
    func propertiesKeepTheirValues(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement("""
                {"title":"Everything set","status":"draft","publishAt":"2030-06-01T10:00:00+02:00","expiresAt":"2031-01-01T00:00:00Z",\
                "pinned":true,"pinnedUntil":"2030-07-01T00:00:00Z","important":true,"audience":{"departments":["IT"],"teams":[]},\
                "acknowledgement":{"required":true,"dueAt":"2030-06-02T00:00:00Z"}}
                """)
            func publishing() async throws -> [String: String] {
                let detail = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
                var shown: [String: String] = [:]
                for key in Self.publishingKeys.union(["audience"]) {
                    let value = detail[key] ?? NSNull()
                    shown[key] = String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]), as: UTF8.self)
                }
                return shown
            }
            let original = try await publishing()
            #expect(original == [
                "status": #""draft""#, "publishAt": #""2030-06-01T08:00:00.000Z""#, "expiresAt": #""2031-01-01T00:00:00.000Z""#,
                "pinned": "true", "pinnedUntil": #""2030-07-01T00:00:00.000Z""#, "important": "true",
                "audience": #"{"departments":["IT"],"teams":[]}"#,
                "acknowledgement": #"{"acknowledgedAt":null,"dueAt":"2030-06-02T00:00:00.000Z","required":true,"round":1}"#,
            ])
            #expect(try await client.send(.patch, "/announcements/\(id)", json: #"{"title":"Renamed"}"#).status == .ok)
            #expect(try await publishing() == original, "PATCH of the title")
            #expect(try await client.send(.put, "/announcements/\(id)", version: "1.0", json: #"{"title":"From an old app"}"#).status == .ok)
            #expect(try await publishing() == original, "1.0 PUT")
            #expect(try await client.send(.put, "/announcements/\(id)", json: #"{"title":"Replaced","body":null}"#).status == .ok)
            #expect(try await publishing() == original, "3.0 PUT without them")
            let spearalPatch = try await client.sendSpearal(.patch, "/announcements/\(id)", properties: [("title", .string("Via Spearal"))])
            #expect(spearalPatch.status == .ok)
            #expect(try await publishing() == original, "Spearal PATCH")

            let cleared = try await client.send(.patch, "/announcements/\(id)", json: #"{"publishAt":null,"expiresAt":null,"pinnedUntil":null,"audience":null}"#)
            #expect(cleared.status == .ok)
            var expected = original
            for key in ["publishAt", "expiresAt", "pinnedUntil", "audience"] { expected[key] = "null" }
            #expect(try await publishing() == expected)
            let spearalSet = try await client.sendSpearal(.patch, "/announcements/\(id)", properties: [
                ("status", .string("published")), ("important", .bool(false)), ("expiresAt", .string("2040-01-01T00:00:00Z")),
            ])
            #expect(spearalSet.status == .ok)
            expected["status"] = #""published""#
            expected["important"] = "false"
            expected["expiresAt"] = #""2040-01-01T00:00:00.000Z""#
            #expect(try await publishing() == expected)
            #expect(try await client.send(.get, "/announcements/\(id)", as: .reader).status == .ok, "published, no audience: for everyone")
        }
    }
}
