import Foundation
import HTTPTypes
import HummingbirdTesting
import Spearal
import Testing
@testable import IntranetServer

/// Publishing properties refused: 422 naming the field, and nothing changed.
@Suite("Publishing: validation")
struct PublishingValidationTests {
    static let writes: [(HTTPRequest.Method, String)] = [(.post, "/announcements"), (.put, "/announcements/2"), (.patch, "/announcements/2")]

    /// Members added to a body with a title, and the fields the 422 must name.
    static let refused: [(members: String, fields: [String])] = [
        (#""publishAt":"2026-12-07T08:00:00""#, ["publishAt"]),
        (#""publishAt":"2026-12-07""#, ["publishAt"]),
        (#""publishAt":"next Monday""#, ["publishAt"]),
        (#""publishAt":1796630400"#, ["publishAt"]),
        (#""publishAt":"9999-12-31T23:59:59Z""#, ["publishAt"]),
        (#""publishAt":"1999-12-31T23:59:59Z""#, ["publishAt"]),
        (#""expiresAt":"2100-01-01T00:00:00Z""#, ["expiresAt"]),
        (#""pinnedUntil":true"#, ["pinnedUntil"]),
        (#""pinnedUntil":"9999-01-01T00:00:00+01:00""#, ["pinnedUntil"]),
        (#""status":"archived""#, ["status"]),
        (#""status":"Draft""#, ["status"]),
        (#""status":null"#, ["status"]),
        (#""status":true"#, ["status"]),
        (#""pinned":"yes""#, ["pinned"]),
        (#""pinned":1"#, ["pinned"]),
        (#""pinned":null"#, ["pinned"]),
        (#""important":"true""#, ["important"]),
        (#""publishAt":"2030-01-01T00:00:00Z","expiresAt":"2029-12-31T23:59:59Z""#, ["expiresAt"]),
        (#""publishAt":"2030-01-01T00:00:00Z","expiresAt":"2030-01-01T01:00:00+01:00""#, ["expiresAt"]),
        (#""audience":{"teams":[99999]}"#, ["audience.teams"]),
        (#""audience":{"departments":["IT"],"teams":[1,99999]}"#, ["audience.teams"]),
        (#""audience":{"teams":["1"]}"#, ["audience.teams"]),
        (#""audience":{"departments":"IT"}"#, ["audience.departments"]),
        (#""audience":{"departments":["IT"],"groups":["Ops"]}"#, ["audience"]),
        (#""audience":{"department":["IT"]}"#, ["audience"]),
        (#""audience":"IT""#, ["audience"]),
        (#""audience":["IT"]"#, ["audience"]),
        (#""status":"gone","pinned":"no","important":0"#, ["status", "pinned", "important"]),
    ]

    @Test("bad publishing properties are 422 naming each field, on POST, PUT and PATCH, and change nothing", arguments: writes)
    func refusedProperties(method: HTTPRequest.Method, path: String) async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements/2", as: .editor).text
            for (members, fields) in Self.refused {
                let response = try await client.send(method, path, json: #"{"title":"Changed",\#(members)}"#)
                #expect(response.status == .unprocessableContent, "\(members)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(members)")
                #expect(try Set(response.errorFields()) == Set(fields), "\(members): \(response.text)")
            }
            #expect(try await client.send(.get, "/announcements/2", as: .editor).text == before)
            let list = try await client.send(.get, "/announcements?max=100", as: .editor)
            #expect(list.headers[.total] == "6" && (try? list.ids()) == Array(1...6))
        }
    }

    @Test("a day that does not exist (30 February, 31 April) is not RFC 3339: 422, not a post scheduled for March or May", arguments: writes)
    func impossibleDays(method: HTTPRequest.Method, path: String) async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements/2", as: .editor).text
            for (field, day) in [("expiresAt", "2030-02-30T00:00:00Z"), ("publishAt", "2031-04-31T09:00:00+01:00"), ("pinnedUntil", "2029-02-29T00:00:00Z")] {
                let response = try await client.send(method, path, json: #"{"title":"Changed","\#(field)":"\#(day)"}"#)
                #expect(response.status == .unprocessableContent, "\(field) \(day): \(response.text)")
                #expect(try response.errorFields() == [field], "\(field) \(day)")
            }
            #expect(try await client.send(.get, "/announcements/2", as: .editor).text == before)
        }
    }

    @Test("expiresAt must come after publishAt once merged with what is stored: PATCH and PUT name expiresAt; clearing publishAt in the same PATCH is fine", arguments: TestStorage.all)
    func windowAfterMerge(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let scheduled = try await client.createAnnouncement(#"{"title":"Scheduled","publishAt":"2030-01-01T00:00:00Z"}"#)
            let ending = try await client.createAnnouncement(#"{"title":"Ending","expiresAt":"2030-01-01T00:00:00Z"}"#)
            let before = [
                try await client.send(.get, "/announcements/\(scheduled)", as: .editor).text,
                try await client.send(.get, "/announcements/\(ending)", as: .editor).text,
            ]
            let refused: [(HTTPRequest.Method, Int, String)] = [
                (.patch, scheduled, #"{"expiresAt":"2029-06-01T00:00:00Z"}"#),
                (.patch, scheduled, #"{"expiresAt":"2030-01-01T00:00:00Z"}"#),
                (.put, scheduled, #"{"title":"Scheduled","expiresAt":"2029-06-01T00:00:00Z"}"#),
                (.patch, ending, #"{"publishAt":"2031-01-01T00:00:00Z"}"#),
                (.put, ending, #"{"title":"Ending","publishAt":"2030-01-01T00:00:00Z"}"#),
            ]
            for (method, id, json) in refused {
                let response = try await client.send(method, "/announcements/\(id)", json: json)
                #expect(response.status == .unprocessableContent, "\(method) \(json)")
                #expect(try response.errorFields() == ["expiresAt"], "\(method) \(json): \(response.text)")
            }
            #expect(try await client.send(.get, "/announcements/\(scheduled)", as: .editor).text == before[0])
            #expect(try await client.send(.get, "/announcements/\(ending)", as: .editor).text == before[1])

            let cleared = try await client.send(.patch, "/announcements/\(scheduled)", json: #"{"publishAt":null,"expiresAt":"2029-06-01T00:00:00Z"}"#)
            #expect(cleared.status == .ok)
            #expect(try cleared.object()["publishAt"] is NSNull && cleared.object()["expiresAt"] as? String == "2029-06-01T00:00:00.000Z")
            let moved = try await client.send(.patch, "/announcements/\(ending)", json: #"{"publishAt":"2029-01-01T00:00:00Z"}"#)
            #expect(moved.status == .ok)
        }
    }

    @Test("times with a zone are kept as instants in UTC; the first and last instants of the range are accepted")
    func acceptedTimes() async throws {
        try await withTestServer { _, client in
            let created = try await client.send(.post, "/announcements", json: """
                {"title":"Edges","publishAt":"2000-01-01T00:00:00Z","expiresAt":"2099-12-31T23:59:59.999Z","pinned":true,\
                "pinnedUntil":"2030-06-01T10:00:00+02:00","important":false,"status":"published"}
                """)
            #expect(created.status == .created)
            let detail = try created.object()
            #expect(detail["publishAt"] as? String == "2000-01-01T00:00:00.000Z")
            #expect(detail["expiresAt"] as? String == "2099-12-31T23:59:59.999Z")
            #expect(detail["pinnedUntil"] as? String == "2030-06-01T08:00:00.000Z")
            #expect(detail["pinned"] as? Bool == true && detail["important"] as? Bool == false)
            #expect(created.headers[.apiVersion] == "3.0")
            let id = try #require(detail["id"] as? Int)
            #expect(try await client.send(.get, "/announcements/\(id)", as: .anonymous).status == .ok)
        }
    }

    @Test("Spearal writes take the publishing properties and are refused as JSON is, naming the field")
    func spearalWrites() async throws {
        try await withTestServer { _, client in
            let created = try await client.sendSpearal(.post, "/announcements", properties: [
                ("title", .string("Spearal draft")), ("status", .string("draft")), ("publishAt", .string("2030-01-01T00:00:00Z")),
                ("pinned", .bool(true)), ("important", .bool(true)),
            ])
            #expect(created.status == .created)
            let id = try #require(try created.bean().int("id"))
            let json = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            #expect(json["status"] as? String == "draft" && json["publishAt"] as? String == "2030-01-01T00:00:00.000Z")
            #expect(json["pinned"] as? Bool == true && json["important"] as? Bool == true)
            #expect(try await client.send(.get, "/announcements/\(id)", as: .reader).status == .notFound)

            for (name, value) in [("pinned", SpearalValue.string("yes")), ("publishAt", .string("9999-01-01T00:00:00Z")), ("status", .string("hidden")), ("important", .integral(1))] {
                let refused = try await client.sendSpearal(.patch, "/announcements/\(id)", properties: [(name, value)])
                #expect(refused.status == .unprocessableContent, "\(name)")
                #expect(try refused.errorFields() == [name], "\(name): \(refused.text)")
            }
            #expect(try await client.send(.get, "/announcements/\(id)", as: .editor).object()["status"] as? String == "draft")
        }
    }
}
