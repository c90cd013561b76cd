import Foundation
import HTTPTypes
import HummingbirdTesting
import Spearal
import SQLKit
import Testing
@testable import IntranetServer

/// The directory's writes: who may write, what is refused (and that a refusal changes nothing),
/// the rules that keep the organisation a tree, preconditions and reassignments.
extension PeopleTests {
    @Test("writes need an editor; bad input is a 422 naming every field and changes nothing", arguments: TestStorage.all)
    func validation(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let body = #"{"name":"Ok Name","email":"ok@brightwater.example","jobTitle":"Tester","department":"IT"}"#
            #expect(try await client.send(.post, "/people", json: body, as: .anonymous).status == .unauthorized)
            #expect(try await client.send(.post, "/people", json: body, as: .reader).status == .forbidden)
            #expect(try await client.send(.delete, "/people/31", as: .reader).status == .forbidden)

            let empty = try await client.send(.post, "/people", json: "{}")
            #expect(empty.status == .unprocessableContent)
            let fields = try (empty.object()["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(Set(fields ?? []) == ["name", "email", "jobTitle", "department"])
            for (json, field) in [
                (#"{"name":"  ","email":"x@y.example","jobTitle":"T","department":"D"}"#, "name"),
                (#"{"name":"A","email":"not an address","jobTitle":"T","department":"D"}"#, "email"),
                (#"{"name":"A","email":"a@localhost","jobTitle":"T","department":"D"}"#, "email"),
                (#"{"name":"A","email":"ZOE.LEFEVRE@brightwater.example","jobTitle":"T","department":"D"}"#, "email"),
                (#"{"name":"A","email":"a@b.example","jobTitle":"T","department":"D","phone":"call me"}"#, "phone"),
                (#"{"name":"A","email":"a@b.example","jobTitle":"T","department":"D","managerId":999}"#, "managerId"),
                (#"{"name":"A","email":"a@b.example","jobTitle":"T","department":"D","managerId":"3"}"#, "managerId"),
                (#"{"name":"A","email":"a@b.example","jobTitle":"T","department":"D","userId":999}"#, "userId"),
                ("{\"name\":\"\(String(repeating: "n", count: 256))\",\"email\":\"a@b.example\",\"jobTitle\":\"T\",\"department\":\"D\"}", "name"),
            ] {
                let answer = try await client.send(.post, "/people", json: json)
                #expect(answer.status == .unprocessableContent, "\(json)")
                #expect(try (answer.object()["errors"] as? [[String: Any]])?.first?["field"] as? String == field, "\(json)")
            }
            #expect(try await client.send(.get, "/people").headers[.total] == "40", "nothing was created")

            let linked = try await client.send(.post, "/people", json: #"{"name":"  Rita Reader ","email":" Rita@Brightwater.example ","jobTitle":"Reader","department":"IT","userId":3,"phone":"+351 21 555 0177 x3","location":""}"#)
            #expect(linked.status == .created)
            let rita = try linked.object()
            #expect(rita["name"] as? String == "Rita Reader" && rita["email"] as? String == "Rita@Brightwater.example")
            #expect(rita["userId"] as? Int == 3 && rita["location"] is NSNull && rita["managerId"] is NSNull)
            #expect(linked.headers[.location] == "/people/\(rita["id"] as? Int ?? 0)")
            let composed = try await client.send(.post, "/people", json: #"{"name":"José","email":"jos\u00e9@brightwater.example","jobTitle":"T","department":"D"}"#)
            #expect(composed.status == .created)
            let decomposed = try await client.send(.post, "/people", json: #"{"name":"José","email":"JOSE\u0301@brightwater.example","jobTitle":"T","department":"D"}"#)
            #expect(decomposed.status == .unprocessableContent, "é typed either way is one address")
            let twice = try await client.send(.post, "/people", json: #"{"name":"Rita Again","email":"rita2@brightwater.example","jobTitle":"Reader","department":"IT","userId":3}"#)
            #expect(twice.status == .unprocessableContent && twice.text.contains("already the account of Rita Reader"))
        }
    }

    @Test("no one becomes their own manager, directly or through a chain of any length; the 422 names the loop", arguments: TestStorage.all)
    func loops(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let own = try await client.send(.patch, "/people/3", json: #"{"managerId":3}"#)
            #expect(own.status == .unprocessableContent && own.text.contains("their own manager"))
            let two = try await client.send(.patch, "/people/3", json: #"{"managerId":9}"#)
            #expect(two.status == .unprocessableContent)
            #expect(two.text.contains("Zoë Lefèvre (#3) → Kwame Mensah (#9) → Zoë Lefèvre (#3)"))
            let five = try await client.send(.put, "/people/1", json: #"{"name":"Margit Olsen","email":"margit.olsen@brightwater.example","jobTitle":"CEO","department":"Executive","managerId":31}"#)
            #expect(five.status == .unprocessableContent)
            #expect(five.text.contains("Margit Olsen (#1) → Ana Ferreira (#31) → Pieter de Vries (#22) → Lena Fischer (#10) → Zoë Lefèvre (#3) → Margit Olsen (#1)"))
            #expect(try await client.send(.get, "/people/1").object()["jobTitle"] as? String == "Chief Executive Officer", "nothing changed")

            // Moving someone sideways is fine, and every reader sees it at once.
            let moved = try await client.send(.patch, "/people/22", json: #"{"managerId":9}"#)
            #expect(moved.status == .ok)
            #expect(try await client.send(.get, "/people/31/chain").objects().compactMap { $0["id"] as? Int } == [31, 22, 9, 3, 1])
            #expect(try await client.send(.get, "/people/10").object()["reportIds"] as? [Int] == [])
        }
    }

    @Test("the organisation has at most 100 levels: adding below the deepest or moving a tree under it is refused")
    func depthLimit() async throws {
        try await withTestServer { _, client in
            // Ana Ferreira (31) is on level 5; 95 more below her reach level 100.
            var deepest = 31
            for level in 6...100 {
                let created = try await client.send(.post, "/people", json: #"{"name":"Level \#(level)","email":"l\#(level)@brightwater.example","jobTitle":"T","department":"D","managerId":\#(deepest)}"#)
                try #require(created.status == .created)
                deepest = try #require(try created.object()["id"] as? Int)
            }
            let tooDeep = try await client.send(.post, "/people", json: #"{"name":"Level 101","email":"l101@brightwater.example","jobTitle":"T","department":"D","managerId":\#(deepest)}"#)
            #expect(tooDeep.status == .unprocessableContent && tooDeep.text.contains("101 levels deep; it may have at most 100"))
            // Kwame (9, level 3) has one level of reports below him: under level 99 he would make 101.
            let moved = try await client.send(.patch, "/people/9", json: #"{"managerId":\#(deepest - 1)}"#)
            #expect(moved.status == .unprocessableContent && moved.text.contains("101 levels deep"))
            #expect(try await client.send(.patch, "/people/20", json: #"{"managerId":\#(deepest - 1)}"#).status == .ok, "a leaf fits on level 100")
            #expect(try await client.send(.get, "/org", headers: [.accept: "application/spearal"]).status == .ok)
        }
    }

    @Test("a person is never linked to an account being deleted at that moment: the write waits for the deletion and is a 422 (was a 500)")
    func accountDeletedMeanwhile() async throws {
        guard TestStorage.postgresURL != nil else { return }
        // Connections enough for the held deletion and the write beside it.
        try await withTestServer(.postgres, configure: { $0.databasePoolSize = 4 }) { server, client in
            let account = TestUser.otherReader.id
            let (locked, lockedContinuation) = AsyncStream<Void>.makeStream()
            let deletion = Task {
                try await server.database.database.transaction { database in
                    try await FluentAccountRepository(database: database).deleteUser(id: account)
                    lockedContinuation.yield()
                    try await Task.sleep(for: .milliseconds(400))  // uncommitted, the account's row locked
                }
            }
            for await _ in locked { break }
            let body = #"{"name":"Olga Other","email":"olga@brightwater.example","jobTitle":"Reader","department":"Library","userId":\#(account)}"#
            let answer = try await client.send(.post, "/people", json: body)
            try await deletion.value
            #expect(answer.status == .unprocessableContent)
            #expect(answer.text.contains("names no account: \(account)"))
            #expect(try await client.send(.get, "/people?q=olga").headers[.total] == "0", "nothing was written")
        }
    }

    @Test("If-Match guards writes with any tag read of the person", arguments: TestStorage.all)
    func ifMatch(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let etag = try #require(try await client.send(.get, "/people/31", headers: [.accept: "application/spearal"]).headers[.eTag])
            let first = try await client.send(.patch, "/people/31", headers: [.ifMatch: etag], json: #"{"location":"Remote"}"#)
            #expect(first.status == .ok)
            let stale = try await client.send(.patch, "/people/31", headers: [.ifMatch: etag], json: #"{"location":"Office"}"#)
            #expect(stale.status == .preconditionFailed && stale.text.contains("person changed"))
            #expect(try await client.send(.delete, "/people/31", headers: [.ifMatch: etag]).status == .preconditionFailed)
            #expect(try await client.send(.get, "/people/31").object()["location"] as? String == "Remote")
            // Another resource's tag with the same id and revision guards nothing here (found by review).
            let announcementTag = try #require(try await client.send(.get, "/announcements/5").headers[.eTag])
            #expect(announcementTag.hasPrefix("\"5.1."))
            #expect(try await client.send(.patch, "/people/5", headers: [.ifMatch: announcementTag], json: #"{"location":"Elsewhere"}"#).status == .preconditionFailed)
        }
    }

    @Test("deleting someone with reports is 409 unless reassignTo says where they go, done in one transaction", arguments: TestStorage.all)
    func deleteWithReports(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let refused = try await client.send(.delete, "/people/10")
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("Pieter de Vries (#22)") && refused.text.contains("reassignTo"))
            #expect(try await client.send(.delete, "/people/10?reassignTo=abc").status == .badRequest)
            #expect(try await client.send(.delete, "/people/10?reassignTo=999").status == .unprocessableContent)
            #expect(try await client.send(.delete, "/people/10?reassignTo=10").status == .unprocessableContent)
            let below = try await client.send(.delete, "/people/10?reassignTo=31")
            #expect(below.status == .unprocessableContent && below.text.contains("works under the person being deleted"))
            #expect(try await client.send(.get, "/people/10").status == .ok, "nothing was deleted")

            #expect(try await client.send(.delete, "/people/10?reassignTo=9").status == .noContent)
            #expect(try await client.send(.get, "/people/10").status == .notFound)
            #expect(try await client.send(.get, "/people/22").object()["managerId"] as? Int == 9)
            #expect(try await client.send(.get, "/people/9").object()["reportIds"] as? [Int] == [20, 21, 22])

            #expect(try await client.send(.delete, "/people/22?reassignTo=none").status == .noContent)
            #expect(try await client.send(.get, "/people/31").object()["managerId"] is NSNull)
            #expect(try await client.send(.get, "/org").objects().count == 3, "Ana and Tom are now at the top")
            // Where reports would go is checked even for someone without reports (found by review).
            #expect(try await client.send(.delete, "/people/32?reassignTo=999").status == .unprocessableContent)
            #expect(try await client.send(.delete, "/people/32?reassignTo=32").status == .unprocessableContent)
            #expect(try await client.send(.delete, "/people/32").status == .noContent, "no reports: no reassignTo needed")
        }
    }

    @Test("a Spearal PATCH is a partial person; the answer is Spearal")
    func spearalPatch() async throws {
        try await withTestServer { _, client in
            let answer = try await client.sendSpearal(.patch, "/people/31", className: "intranet.Person", properties: [("jobTitle", .string("Senior Service Desk Analyst"))])
            #expect(answer.status == .ok)
            let bean = try answer.bean()
            defer { SpearalValue.bean(bean).dismantle() }
            #expect(bean.string("jobTitle") == "Senior Service Desk Analyst" && bean.string("name") == "Ana Ferreira")
            let bad = try await client.sendSpearal(.patch, "/people/31", className: "intranet.Person", properties: [("name", .null)])
            #expect(bad.status == .unprocessableContent)
        }
    }

    static let phones = [
        "", "  ", "\t", "+351 21 555 0100", " 12 ", "(030) 123-45 x12", "abc", "12a", "+", "١٢٣",
        String(repeating: " ", count: 41), String(repeating: "1", count: 40), " " + String(repeating: "1", count: 40),
    ]

    @Test("the OpenAPI schema of a person's phone (pattern and length) admits exactly the phones the server accepts", arguments: phones)
    func documentedPhoneSyntax(phone: String) async throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let properties = try #require((schemas["PersonPatch"] as? [String: Any])?["properties"] as? [String: Any])
        let schema = try #require(properties["phone"] as? [String: Any])
        let pattern = try NSRegularExpression(pattern: try #require(schema["pattern"] as? String))
        let maxLength = try #require(schema["maxLength"] as? Int)
        let documented = pattern.firstMatch(in: phone, range: NSRange(phone.startIndex..., in: phone)) != nil
            && phone.unicodeScalars.count <= maxLength
        try await withTestServer { _, client in
            let answer = try await client.send(.patch, "/people/3", json: #"{"phone":\#(Body.string(phone))}"#)
            #expect((answer.status == .ok) == documented, "\(answer.status) for \"\(phone)\", documented \(documented ? "valid" : "invalid")")
        }
    }
}
