import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// Announcements addressed to departments and teams of the people directory, read through the
/// person each account is linked to: a move in the organisation changes what that account sees
/// at once, answers kept before the move included.
@Suite("Publishing: audiences by department and team")
struct AudienceTests {
    /// People of the test's own: Hana heads the depot (no account); Rita works under her (the
    /// reader's account); Omar is in the harbour with no manager (the other reader's account).
    struct Org {
        var hana: Int
        var rita: Int
        var omar: Int
    }

    static func makeOrg(_ client: some TestClientProtocol) async throws -> Org {
        func person(_ json: String) async throws -> Int {
            let created = try await client.send(.post, "/people", json: json)
            try #require(created.status == .created, "\(created.text)")
            return try #require(try created.object()["id"] as? Int)
        }
        let hana = try await person(#"{"name":"Hana Head","email":"hana.head@depot.example","jobTitle":"Head of Depot","department":"Depot"}"#)
        let rita = try await person(#"{"name":"Rita Reader","email":"rita.reader@depot.example","jobTitle":"Picker","department":"Depot","managerId":\#(hana),"userId":3}"#)
        let omar = try await person(#"{"name":"Omar Other","email":"omar.other@harbour.example","jobTitle":"Pilot","department":"Harbour","userId":4}"#)
        return Org(hana: hana, rita: rita, omar: omar)
    }

    /// The read paths of `user` (nil: signed out) for announcement `id`.
    static func paths(_ id: Int, as user: TestUser?) -> [VisibilityProbe] {
        let who = user?.rawValue ?? "signed out"
        return [
            VisibilityProbe(description: "\(who): list", kind: .list, uri: "/announcements", caller: user),
            VisibilityProbe(description: "\(who): list 1.0", kind: .list, uri: "/announcements", version: "1.0", caller: user),
            VisibilityProbe(description: "\(who): list in Spearal", kind: .spearalList, uri: "/announcements", headers: [.accept: "application/spearal"], caller: user),
            VisibilityProbe(description: "\(who): detail", kind: .detail, uri: "/announcements/\(id)", caller: user),
            VisibilityProbe(description: "\(who): detail 2.0", kind: .detail, uri: "/announcements/\(id)", version: "2.0", caller: user),
            VisibilityProbe(description: "\(who): web home", kind: .listPage, uri: "/", caller: user),
            VisibilityProbe(description: "\(who): web page", kind: .detailPage, uri: "/announcements/\(id)", caller: user),
        ]
    }

    private func patchPerson(_ client: some TestClientProtocol, _ id: Int, _ json: String) async throws {
        let response = try await client.send(.patch, "/people/\(id)", json: json)
        try #require(response.status == .ok, "\(json): \(response.text)")
    }

    @Test("a department audience reaches the people of that department (ignoring ASCII case); a move of department or an unlinked account counts at once, kept answers included", arguments: TestStorage.all)
    func byDepartment(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let org = try await Self.makeOrg(client)
            let id = try await client.createAnnouncement(#"{"title":"Harbour pilots rota","audience":{"departments":["harbour"]}}"#)
            let rita = Self.paths(id, as: .reader)
            let omar = Self.paths(id, as: .otherReader)
            let everyone = rita + omar + Self.paths(id, as: nil)
            try await everyone.warm(on: server, client)
            try await omar.expect(client, showing: id, true, total: 7, "Omar is in the harbour")
            try await rita.expect(client, showing: id, false, total: 6, "Rita is in the depot")
            try await Self.paths(id, as: nil).expect(client, showing: id, false, total: 6, "signed out")

            try await everyone.warm(on: server, client)
            try await patchPerson(client, org.rita, #"{"department":"HARBOUR"}"#)
            try await rita.expect(client, showing: id, true, total: 7, "Rita moved to the harbour")
            try await omar.expect(client, showing: id, true, total: 7, "Omar stays")

            try await everyone.warm(on: server, client)
            try await patchPerson(client, org.omar, #"{"department":"Depot"}"#)
            try await omar.expect(client, showing: id, false, total: 6, "Omar moved to the depot")
            try await rita.expect(client, showing: id, true, total: 7, "Rita stays")

            try await everyone.warm(on: server, client)
            try await patchPerson(client, org.rita, #"{"userId":null}"#)
            try await rita.expect(client, showing: id, false, total: 6, "Rita's account no longer linked")
            try await Self.paths(id, as: nil).expect(client, showing: id, false, total: 6, "signed out, after all")

            let editor = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            let audience = try #require(editor["audience"] as? [String: Any])
            #expect(audience["departments"] as? [String] == ["harbour"] && audience["teams"] as? [Int] == [])
            #expect(editor["readers"] is NSNull)
        }
    }

    @Test("a team audience reaches its head and everyone under them at any depth; a change of manager counts at once, kept answers included", arguments: TestStorage.all)
    func byTeam(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let org = try await Self.makeOrg(client)
            let id = try await client.createAnnouncement(#"{"title":"Depot team briefing","audience":{"teams":[\#(org.hana)]}}"#)
            let rita = Self.paths(id, as: .reader)
            let omar = Self.paths(id, as: .otherReader)
            try await (rita + omar).warm(on: server, client)
            try await rita.expect(client, showing: id, true, total: 7, "Rita reports to Hana")
            try await omar.expect(client, showing: id, false, total: 6, "Omar reports to no one")

            try await (rita + omar).warm(on: server, client)
            try await patchPerson(client, org.omar, #"{"managerId":\#(org.rita)}"#)
            try await omar.expect(client, showing: id, true, total: 7, "Omar under Rita under Hana")

            try await (rita + omar).warm(on: server, client)
            try await patchPerson(client, org.rita, #"{"managerId":null}"#)
            try await rita.expect(client, showing: id, false, total: 6, "Rita left Hana's team")
            try await omar.expect(client, showing: id, false, total: 6, "and Omar with her")

            try await (rita + omar).warm(on: server, client)
            let readdressed = try await client.send(.patch, "/announcements/\(id)", json: #"{"audience":{"teams":[\#(org.rita)]}}"#)
            #expect(readdressed.status == .ok)
            try await rita.expect(client, showing: id, true, total: 7, "Rita heads the team")
            try await omar.expect(client, showing: id, true, total: 7, "Omar is in it")
        }
    }

    @Test(
        "the first read after a move in the organisation, whichever path it takes, answers for the new place: kept answers are not used",
        arguments: paths(7, as: .otherReader))
    func firstReadAfterMove(probe: VisibilityProbe) async throws {
        try await withTestServer(mode: .live) { server, client in
            let org = try await Self.makeOrg(client)
            try #require(try await client.createAnnouncement(#"{"title":"Depot team","audience":{"teams":[\#(org.hana)]}}"#) == 7)
            try #require(try await client.createAnnouncement(#"{"title":"Depot staff","audience":{"departments":["depot"]}}"#) == 8)
            var byDepartment = probe
            byDepartment.uri = probe.uri.replacingOccurrences(of: "/announcements/7", with: "/announcements/8")
            let omar = Self.paths(7, as: .otherReader) + Self.paths(8, as: .otherReader)
            let moves: [(json: String, probe: VisibilityProbe, id: Int, shown: Bool)] = [
                (#"{"managerId":\#(org.rita)}"#, probe, 7, true),
                (#"{"managerId":null}"#, probe, 7, false),
                (#"{"department":"DEPOT"}"#, byDepartment, 8, true),
                (#"{"department":"Harbour"}"#, byDepartment, 8, false),
            ]
            for move in moves {
                try await omar.warm(on: server, client)
                #expect(try move.probe.shows(await move.probe.read(client), id: move.id) != move.shown, "before \(move.json)")
                try await patchPerson(client, org.omar, move.json)
                #expect(try move.probe.shows(await move.probe.read(client), id: move.id) == move.shown, "the first read after \(move.json)")
            }
        }
    }

    @Test("an empty audience is for editors and admins only: 404 to everyone else in every version, never in their lists or totals", arguments: TestStorage.all)
    func emptyAudience(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            _ = try await Self.makeOrg(client)
            let id = try await client.createAnnouncement(#"{"title":"Editors only","audience":{"departments":[],"teams":[]}}"#)
            let others = Self.paths(id, as: .reader) + Self.paths(id, as: .otherReader) + Self.paths(id, as: nil)
            try await others.warm(on: server, client)
            try await others.expect(client, showing: id, false, total: 6, "an empty audience")
            for caller in [Caller.reader, .otherReader, .anonymous] {
                for version in ["1.0", "2.0", "3.0"] {
                    #expect(try await client.send(.get, "/announcements/\(id)", version: version, as: caller).status == .notFound)
                }
            }
            for caller in [Caller.editor, .admin] {
                let detail = try await client.send(.get, "/announcements/\(id)", as: caller)
                #expect(detail.status == .ok)
                let audience = try #require(try detail.object()["audience"] as? [String: Any], "\(detail.text)")
                #expect(audience["departments"] as? [String] == [] && audience["teams"] as? [Int] == [])
                let list = try await client.send(.get, "/announcements", as: caller)
                #expect(try list.ids().contains(id) && list.headers[.total] == "7")
            }
        }
    }

    @Test("named readers and an audience add up; clearing the audience leaves the named readers; a reader's answers never show readers or audience", arguments: TestStorage.all)
    func readersAndAudience(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            _ = try await Self.makeOrg(client)
            let third = try await SharedViewTests.newReader("third", client: client)
            let id = try await client.createAnnouncement(#"{"title":"Depot and Omar","readers":[4],"audience":{"departments":["depot"]}}"#)
            let rita = Self.paths(id, as: .reader)
            let omar = Self.paths(id, as: .otherReader)
            try await (rita + omar).warm(on: server, client)
            try await rita.expect(client, showing: id, true, total: 7, "Rita through the depot")
            try await omar.expect(client, showing: id, true, total: 7, "Omar by name")
            #expect(try await client.send(.get, "/announcements/\(id)", headers: [.authorization: "Bearer \(third)"], as: .anonymous).status == .notFound)
            #expect(try await client.send(.get, "/announcements", headers: [.authorization: "Bearer \(third)"], as: .anonymous).headers[.total] == "6")
            let readerView = try await client.send(.get, "/announcements/\(id)", as: .reader).object()
            #expect(readerView["readers"] == nil && readerView["audience"] == nil)

            try await (rita + omar).warm(on: server, client)
            #expect(try await client.send(.patch, "/announcements/\(id)", json: #"{"audience":null}"#).status == .ok)
            try await rita.expect(client, showing: id, false, total: 6, "no audience: Rita is not named")
            try await omar.expect(client, showing: id, true, total: 7, "Omar still named")
            let editor = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            #expect(editor["audience"] is NSNull && editor["readers"] as? [Int] == [4])

            try await (rita + omar).warm(on: server, client)
            #expect(try await client.send(.patch, "/announcements/\(id)", json: #"{"readers":null}"#).status == .ok)
            try await (rita + omar + Self.paths(id, as: nil)).expect(client, showing: id, true, total: 7, "open to everyone")
        }
    }
}
