import FluentKit
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
@testable import IntranetServer

/// Readers acknowledge announcements that ask for it: once per round, only what they may read,
/// shown on their own 3.0 detail and gone from their pending list.
@Suite("Acknowledgements: giving them")
struct AcknowledgementTests {
    static let asking = #"{"title":"Fire drill on Friday","body":"<p>Assemble in the car park.</p>","acknowledgement":{"required":true,"dueAt":"2030-01-15T09:00:00Z"}}"#

    /// How many acknowledgement rows the database holds.
    static func rows(_ server: IntranetServer) async throws -> Int {
        try await AcknowledgementModel.query(on: server.database.database).count()
    }

    @Test("50 simultaneous PUTs of one reader make one row and all answer the same first time; a repeat later changes nothing", arguments: TestStorage.all)
    func idempotentUnderConcurrency(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let id = try await client.createAnnouncement(Self.asking)
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String).self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let response = try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader)
                        return (response.status, response.text)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == .ok }, "\(answers.filter { $0.0 != .ok })")
            #expect(Set(answers.map(\.1)).count == 1, "every answer names the first acknowledgement")
            #expect(try await Self.rows(server) == 1)
            let again = try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader)
            #expect(again.text == answers[0].1)
            let receipt = try again.object()
            #expect(receipt["round"] as? Int == 1)
            let detail = try await client.send(.get, "/announcements/\(id)", as: .reader).object()
            let acknowledgement = try #require(detail["acknowledgement"] as? [String: Any])
            #expect(acknowledgement["acknowledgedAt"] as? String == receipt["acknowledgedAt"] as? String)
            #expect(acknowledgement["dueAt"] as? String == "2030-01-15T09:00:00.000Z")
            #expect(try await Self.rows(server) == 1)
        }
    }

    @Test("acknowledgements of every kind at once (new, twins, repeats of earlier ones, hidden, not asked) each get their own answer, however they share a transaction", arguments: TestStorage.all)
    func mixedAtOnce(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let first = try await client.createAnnouncement(Self.asking)
            let second = try await client.createAnnouncement(Self.asking)
            let hidden = try await client.createAnnouncement(#"{"title":"Board only","readers":[\#(TestUser.otherReader.id)],"acknowledgement":{"required":true}}"#)
            let plain = try await client.createAnnouncement(#"{"title":"Nothing to confirm"}"#)
            let earlier = try await client.send(.put, "/announcements/\(second)/acknowledgement", as: .reader)
            try #require(earlier.status == .ok)
            let asks: [(Caller, Int)] = [
                (.reader, first), (.otherReader, first), (.reader, first), (.reader, second), (.reader, hidden), (.otherReader, hidden),
                (.reader, plain), (.otherReader, second), (.reader, second), (.otherReader, first),
            ]
            let answers = try await withThrowingTaskGroup(of: (Int, HTTPResponse.Status, String).self) { group in
                for (index, (user, id)) in asks.enumerated() {
                    group.addTask {
                        let response = try await client.send(.put, "/announcements/\(id)/acknowledgement", as: user)
                        return (index, response.status, response.text)
                    }
                }
                return try await group.reduce(into: [Int: (HTTPResponse.Status, String)]()) { $0[$1.0] = ($1.1, $1.2) }
            }
            #expect(answers[4]?.0 == .notFound && answers[6]?.0 == .conflict, "hidden from the reader; asks nothing")
            for index in [0, 1, 2, 3, 5, 7, 8, 9] { #expect(answers[index]?.0 == .ok, "\(index): \(answers[index]?.1 ?? "")") }
            #expect(answers[0]?.1 == answers[2]?.1, "twins answer with the same first time")
            #expect(answers[1]?.1 == answers[9]?.1)
            #expect(answers[3]?.1 == earlier.text && answers[8]?.1 == earlier.text, "a repeat answers with the time given before")
            #expect(try await Self.rows(server) == 5, "first by both, second by both, hidden by its reader")
        }
    }

    @Test("only someone who may read it acknowledges: a hidden or draft post is 404 as a read is, signed out is 401, a post that asks nothing is 409; none counts", arguments: TestStorage.all)
    func whoMayAcknowledge(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let hidden = try await client.createAnnouncement(#"{"title":"Board only","readers":[\#(TestUser.otherReader.id)],"acknowledgement":{"required":true}}"#)
            let draft = try await client.createAnnouncement(#"{"title":"Not yet","status":"draft","acknowledgement":{"required":true}}"#)
            let plain = try await client.createAnnouncement(#"{"title":"Nothing to confirm"}"#)
            let read = try await client.send(.get, "/announcements/\(hidden)", as: .reader)
            let put = try await client.send(.put, "/announcements/\(hidden)/acknowledgement", as: .reader)
            #expect(read.status == .notFound && put.status == .notFound)
            #expect(try await client.send(.put, "/announcements/\(draft)/acknowledgement", as: .reader).status == .notFound)
            #expect(try await client.send(.put, "/announcements/999/acknowledgement", as: .reader).status == .notFound)
            #expect(try await client.send(.put, "/announcements/\(hidden)/acknowledgement", as: .anonymous).status == .unauthorized)
            let notAsked = try await client.send(.put, "/announcements/\(plain)/acknowledgement", as: .reader)
            #expect(notAsked.status == .conflict, "\(notAsked.text)")
            #expect(try await Self.rows(server) == 0)
            let named = try await client.send(.put, "/announcements/\(hidden)/acknowledgement", as: .otherReader)
            #expect(named.status == .ok)
            let reach = try await client.send(.get, "/announcements/\(hidden)/reach", as: .editor).object()
            #expect(reach["audience"] as? Int == 1 && reach["acknowledged"] as? Int == 1)
        }
    }

    @Test("a typo fix keeps acknowledgements; a new round asks everyone again; stopping and asking again keeps the round", arguments: TestStorage.all)
    func rounds(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(Self.asking)
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).status == .ok)
            func mine() async throws -> [String: Any] {
                let detail = try await client.send(.get, "/announcements/\(id)", as: .reader).object()
                return try #require(detail["acknowledgement"] as? [String: Any])
            }
            func pending() async throws -> [Int] {
                try await client.send(.get, "/announcements?pending=true", as: .reader).ids()
            }
            let given = try await mine()["acknowledgedAt"] as? String
            #expect(given != nil)

            let typo = try await client.send(.patch, "/announcements/\(id)", json: #"{"body":"<p>Assemble in the car park, please.</p>"}"#)
            #expect(typo.status == .ok)
            #expect(try await mine()["acknowledgedAt"] as? String == given)
            #expect(try await pending() == [])

            let material = try await client.send(
                .patch, "/announcements/\(id)", json: #"{"body":"<p>Assemble at the north gate.</p>","acknowledgement":{"required":true,"newRound":true}}"#)
            #expect(material.status == .ok, "\(material.text)")
            #expect(try await mine()["round"] as? Int == 2)
            #expect(try await mine()["acknowledgedAt"] is NSNull)
            #expect(try await mine()["dueAt"] as? String == "2030-01-15T09:00:00.000Z", "a due date not sent is kept")
            #expect(try await pending() == [id])
            let second = try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).object()
            #expect(second["round"] as? Int == 2 && second["acknowledgedAt"] as? String != given)

            let stop = try await client.send(.patch, "/announcements/\(id)", json: #"{"acknowledgement":null}"#)
            #expect(try stop.object()["acknowledgement"] is NSNull)
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).status == .conflict)
            let again = try await client.send(.patch, "/announcements/\(id)", json: #"{"acknowledgement":{"required":true}}"#)
            #expect(again.status == .ok)
            #expect(try await mine()["round"] as? Int == 2, "asking again without a new round keeps the round")
            #expect(try await mine()["acknowledgedAt"] as? String == second["acknowledgedAt"] as? String)
        }
    }

    @Test("the pending list holds what waits for the reader, earliest due date first, those without one last; it needs a sign-in and a plain value")
    func pendingList() async throws {
        try await withTestServer { _, client in
            let later = try await client.createAnnouncement(#"{"title":"Later","acknowledgement":{"required":true,"dueAt":"2031-03-01T00:00:00Z"}}"#)
            let undated = try await client.createAnnouncement(#"{"title":"Whenever","acknowledgement":{"required":true}}"#)
            let sooner = try await client.createAnnouncement(#"{"title":"Sooner","acknowledgement":{"required":true,"dueAt":"2030-02-01T00:00:00+01:00"}}"#)
            _ = try await client.createAnnouncement(#"{"title":"Not for Rita","readers":[\#(TestUser.otherReader.id)],"acknowledgement":{"required":true}}"#)
            _ = try await client.createAnnouncement(#"{"title":"Draft","status":"draft","acknowledgement":{"required":true}}"#)
            let list = try await client.send(.get, "/announcements?pending=true", as: .reader)
            #expect(try list.ids() == [sooner, later, undated])
            #expect(list.headers[.total] == "3")
            #expect(list.headers[.vary]?.contains("Authorization") == true, "one reader's own list")
            let page = try await client.send(.get, "/announcements?pending=true&per_page=2&page=2", as: .reader)
            #expect(try page.ids() == [undated])
            #expect(try await client.send(.put, "/announcements/\(sooner)/acknowledgement", as: .reader).status == .ok)
            #expect(try await client.send(.get, "/announcements?pending=true", as: .reader).ids() == [later, undated])
            #expect(try await client.send(.get, "/announcements?pending=true", as: .otherReader).ids().count == 4)
            #expect(try await client.send(.get, "/announcements?pending=false", as: .reader).status == .ok)
            #expect(try await client.send(.get, "/announcements?pending=true", as: .anonymous).status == .unauthorized)
            #expect(try await client.send(.get, "/announcements?pending=yes", as: .reader).status == .badRequest)
            #expect(try await client.send(.get, "/announcements?pending=true&status=draft", as: .editor).status == .badRequest)
        }
    }

    @Test("one reader's acknowledgement shows on their detail only: another reader of the same view keeps null, tags differ, an old tag gets the new answer", arguments: TestStorage.all)
    func personalDetail(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let id = try await client.createAnnouncement(Self.asking)
            let before = try await client.send(.get, "/announcements/\(id)", as: .reader)
            _ = try await client.send(.get, "/announcements/\(id)", as: .otherReader)
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).status == .ok)
            for _ in 0..<3 {
                let other = try await client.send(.get, "/announcements/\(id)", as: .otherReader)
                #expect((try other.object()["acknowledgement"] as? [String: Any])?["acknowledgedAt"] is NSNull)
            }
            let etag = try #require(before.headers[.eTag])
            let after = try await client.send(.get, "/announcements/\(id)", headers: [.ifNoneMatch: etag], as: .reader)
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != etag)
            #expect((try after.object()["acknowledgement"] as? [String: Any])?["acknowledgedAt"] is String)
            let revalidated = try await client.send(.get, "/announcements/\(id)", headers: [.ifNoneMatch: after.headers[.eTag]!], as: .reader)
            #expect(revalidated.status == .notModified)
            let signedOut = try await client.send(.get, "/announcements/\(id)").object()
            #expect((signedOut["acknowledgement"] as? [String: Any])?["acknowledgedAt"] is NSNull)
            let old = try await client.send(.get, "/announcements/\(id)", version: "2.0", as: .reader).object()
            #expect(old["acknowledgement"] == nil, "2.0 keeps its shape")
            let list = try await client.send(.get, "/announcements", as: .reader).objects()
            let item = try #require(list.first { $0["id"] as? Int == id }?["acknowledgement"] as? [String: Any])
            #expect(item["round"] as? Int == 1 && item["acknowledgedAt"] == nil, "a list item is the same for every reader")
        }
    }

    @Test("a revalidation after acknowledging gets the new answer: a 304 of a reader's own answer is never kept for the next", arguments: TestStorage.all)
    func revalidationAfterAcknowledging(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let id = try await client.createAnnouncement(Self.asking)
            var tags: [String: String] = [:]
            for uri in ["/announcements?pending=true", "/announcements/\(id)"] {
                let first = try await client.send(.get, uri, as: .reader)
                let tag: String = try #require(first.headers[.eTag])
                tags[uri] = tag
                for _ in 0..<3 {
                    let again = try await client.send(.get, uri, headers: [.ifNoneMatch: tag], as: .reader)
                    #expect(again.status == .notModified)
                    #expect(again.headers[.vary]?.contains("Authorization") == true, "the 304 says it is personal")
                }
            }
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).status == .ok)
            let pending = try await client.send(.get, "/announcements?pending=true", headers: [.ifNoneMatch: tags["/announcements?pending=true"]!], as: .reader)
            #expect(try pending.status == .ok && pending.ids() == [])
            let detail = try await client.send(.get, "/announcements/\(id)", headers: [.ifNoneMatch: tags["/announcements/\(id)"]!], as: .reader)
            #expect(detail.status == .ok)
        }
    }

    @Test("a confirmation names the round read: a new round asked since is 409 and counts nothing; an editor outside the audience is 409; the 404 is a read's")
    func roundsAndWho() async throws {
        try await withTestServer { server, client in
            let id = try await client.createAnnouncement(Self.asking)
            _ = try await client.send(.patch, "/announcements/\(id)", json: #"{"acknowledgement":{"required":true,"newRound":true}}"#)
            let stale = try await client.send(.put, "/announcements/\(id)/acknowledgement?round=1", as: .reader)
            #expect(stale.status == .conflict && stale.text.contains("round 2"), "\(stale.text)")
            #expect(try await Self.rows(server) == 0)
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement?round=x", as: .reader).status == .badRequest)
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement?round=2", as: .reader).status == .ok)
            let webStale = try await client.form("/announcements/\(id)/acknowledgement", [("round", "1")], as: .otherReader)
            #expect(webStale.status == .conflict)

            let restricted = try await client.createAnnouncement(#"{"title":"Board","readers":[\#(TestUser.reader.id)],"acknowledgement":{"required":true}}"#)
            let editor = try await client.send(.put, "/announcements/\(restricted)/acknowledgement", as: .editor)
            #expect(editor.status == .conflict && editor.text.contains("not addressed to you"))
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .editor).status == .ok, "for everyone: editors too")
            let hidden = try await client.send(.put, "/announcements/\(restricted)/acknowledgement", as: .otherReader)
            let read = try await client.send(.get, "/announcements/\(restricted)", as: .otherReader)
            #expect(hidden.status == .notFound && hidden.text == read.text)
        }
    }

    @Test("a bad acknowledgement is a 422 naming the field, and changes nothing")
    func validation() async throws {
        try await withTestServer { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Keep me"}"#)
            let bodies = [
                (#"{"acknowledgement":true}"#, "acknowledgement"),
                (#"{"acknowledgement":{"dueAt":"2030-01-01T00:00:00Z"}}"#, "acknowledgement.required"),
                (#"{"acknowledgement":{"required":true,"dueAt":"tomorrow"}}"#, "acknowledgement.dueAt"),
                (#"{"acknowledgement":{"required":true,"dueAt":"2030-02-30T00:00:00Z"}}"#, "acknowledgement.dueAt"),
                (#"{"acknowledgement":{"required":true,"remind":true}}"#, "acknowledgement"),
                (#"{"acknowledgement":{"required":true,"newRound":"yes"}}"#, "acknowledgement.newRound"),
                (#"{"acknowledgement":{"required":false,"newRound":true}}"#, "acknowledgement.newRound"),
            ]
            for (body, field) in bodies {
                let response = try await client.send(.patch, "/announcements/\(id)", json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                let errors = try response.object()["errors"] as? [[String: Any]] ?? []
                #expect(errors.contains { $0["field"] as? String == field }, "\(body): \(response.text)")
            }
            let stored = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            #expect(stored["acknowledgement"] is NSNull)
            #expect(stored["updatedAt"] as? String == stored["createdAt"] as? String)
        }
    }
}
