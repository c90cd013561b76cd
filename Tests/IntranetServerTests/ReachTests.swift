import Crypto
import FluentKit
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
@testable import IntranetServer

/// The editors' reach report: the audience by department from the people directory, who
/// acknowledged, who opened it, and the named list as CSV — exact as people move and leave.
@Suite("Acknowledgements: reach for editors")
struct ReachTests {
    static func reach(_ client: some TestClientProtocol, _ id: Int) async throws -> [String: Any] {
        let response = try await client.send(.get, "/announcements/\(id)/reach", as: .editor)
        try #require(response.status == .ok, "\(response.text)")
        #expect(response.headers[.cacheControl] == "private, no-store")
        return try response.object()
    }

    static func departments(_ report: [String: Any]) -> [String: [Int]] {
        var byName: [String: [Int]] = [:]
        for department in report["departments"] as? [[String: Any]] ?? [] {
            byName[department["name"] as? String ?? "?"] = [
                department["audience"] as? Int ?? -1, department["acknowledged"] as? Int ?? -1, department["pending"] as? Int ?? -1,
            ]
        }
        return byName
    }

    static func person(_ client: some TestClientProtocol, _ json: String) async throws -> Int {
        let created = try await client.send(.post, "/people", json: json)
        try #require(created.status == .created, "\(created.text)")
        return try #require(try created.object()["id"] as? Int)
    }

    @Test("a department's audience follows the directory: a person moved in joins its pending list and its numbers, one moved out leaves them", arguments: TestStorage.all)
    func audienceFollowsMoves(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let org = try await AudienceTests.makeOrg(client)
            let id = try await client.createAnnouncement(#"{"title":"Harbour safety","audience":{"departments":["Harbour"]},"acknowledgement":{"required":true}}"#)
            #expect(try await client.send(.get, "/announcements?pending=true", as: .otherReader).ids() == [id])
            #expect(try await client.send(.get, "/announcements?pending=true", as: .reader).ids() == [])
            var report = try await Self.reach(client, id)
            #expect(report["audience"] as? Int == 1 && report["pending"] as? Int == 1)
            #expect(Self.departments(report) == ["Harbour": [1, 0, 1]])

            _ = try await client.send(.patch, "/people/\(org.rita)", json: #"{"department":"harbour"}"#)
            #expect(try await client.send(.get, "/announcements?pending=true", as: .reader).ids() == [id], "moved in")
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).status == .ok)
            report = try await Self.reach(client, id)
            #expect(report["audience"] as? Int == 2 && report["acknowledged"] as? Int == 1 && report["pending"] as? Int == 1)
            #expect(Self.departments(report) == ["Harbour": [1, 0, 1], "harbour": [1, 1, 0]])

            _ = try await client.send(.patch, "/people/\(org.omar)", json: #"{"department":"Depot"}"#)
            #expect(try await client.send(.get, "/announcements?pending=true", as: .otherReader).ids() == [], "moved out")
            report = try await Self.reach(client, id)
            #expect(report["audience"] as? Int == 1 && report["acknowledged"] as? Int == 1 && report["pending"] as? Int == 0)
        }
    }

    @Test("on random data, the departments add up to the whole and each equals a count made by hand", arguments: TestStorage.all)
    func departmentsAddUp(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            var generator = SeededGenerator(seed: storage == .sqlite ? 7 : 11)
            let departments = ["Depot", "Harbour", "Finance", "IT"]
            var expected: [String: (audience: Int, acknowledged: Int)] = [:]
            let id = try await client.createAnnouncement(#"{"title":"Code of conduct","acknowledgement":{"required":true,"dueAt":"2020-01-01T00:00:00Z"}}"#)
            // The four test accounts are in no department yet; 24 more, most in the directory.
            expected[DepartmentReachName.none] = (4, 0)
            for index in 0..<24 {
                let created = try await client.send(
                    .post, "/users", json: #"{"username":"user\#(index)","displayName":"User \#(index)","role":"reader","password":"long enough"}"#, as: .admin)
                let account = try #require(try created.object()["id"] as? Int)
                var department = DepartmentReachName.none
                if Int.random(in: 0..<5, using: &generator) > 0 {
                    department = departments.randomElement(using: &generator)!
                    _ = try await Self.person(
                        client, #"{"name":"Person \#(index)","email":"p\#(index)@example.com","jobTitle":"Staff","department":"\#(department)","userId":\#(account)}"#)
                }
                let acknowledges = Bool.random(using: &generator)
                if acknowledges {
                    let login = try await client.send(.post, "/login", json: #"{"username":"user\#(index)","password":"long enough"}"#).object()
                    let token = try #require(login["token"] as? String)
                    let put = try await client.send(.put, "/announcements/\(id)/acknowledgement", headers: [.authorization: "Bearer \(token)"])
                    #expect(put.status == .ok)
                }
                expected[department, default: (0, 0)].audience += 1
                expected[department, default: (0, 0)].acknowledged += acknowledges ? 1 : 0
            }
            let report = try await Self.reach(client, id)
            let byName = Self.departments(report)
            #expect(byName == expected.mapValues { [$0.audience, $0.acknowledged, $0.audience - $0.acknowledged] })
            #expect(byName.values.reduce(0) { $0 + $1[0] } == report["audience"] as? Int)
            #expect(byName.values.reduce(0) { $0 + $1[1] } == report["acknowledged"] as? Int)
            #expect(report["audience"] as? Int == 28)
            #expect(report["overdue"] as? Int == report["pending"] as? Int, "past the due date every pending one is overdue")
        }
    }

    @Test("deleting an account removes its acknowledgements from every list and counts them as a former employee's, until a new round", arguments: TestStorage.all)
    func accountDeletion(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Leave policy","acknowledgement":{"required":true}}"#)
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).status == .ok)
            #expect(try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .otherReader).status == .ok)
            #expect(try await client.send(.delete, "/users/\(TestUser.reader.id)", as: .admin).status == .noContent)
            var report = try await Self.reach(client, id)
            #expect(report["audience"] as? Int == 3 && report["acknowledged"] as? Int == 1 && report["formerEmployees"] as? Int == 1)
            let csv = try await client.send(.get, "/announcements/\(id)/reach", headers: [.accept: "text/csv"], as: .editor).text
            #expect(!csv.contains("Reader,") && csv.contains("Otherreader,"))
            #expect(try await AcknowledgementModel.query(on: server.database.database).filter(\.$userID == TestUser.reader.id).count() == 0)
            _ = try await client.send(.patch, "/announcements/\(id)", json: #"{"acknowledgement":{"required":true,"newRound":true}}"#)
            report = try await Self.reach(client, id)
            #expect(report["formerEmployees"] as? Int == 0 && report["acknowledged"] as? Int == 0 && report["round"] as? Int == 2)
        }
    }

    @Test("the CSV names every person of the audience by department (none first) and name, escaping commas, quotes and line breaks and defusing formulas")
    func csv() async throws {
        try await withTestServer { _, client in
            _ = try await Self.person(client, #"{"name":"Lefèvre, Zoë","email":"zoe@example.com","jobTitle":"IT lead","department":"IT","userId":3}"#)
            _ = try await Self.person(client, #"{"name":"Dwayne \"The Rock\" Johnson","email":"rock@example.com","jobTitle":"Mover","department":"=cmd|' /C calc'!A0","userId":4}"#)
            let id = try await client.createAnnouncement(#"{"title":"Policy","acknowledgement":{"required":true}}"#)
            let given = try await client.send(.put, "/announcements/\(id)/acknowledgement", as: .reader).object()["acknowledgedAt"] as? String
            let response = try await client.send(.get, "/announcements/\(id)/reach", headers: [.accept: "text/csv"], as: .editor)
            #expect(response.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(response.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            let expected = [
                "name,email,department,acknowledged_at",
                "Admin,,No department,",
                "Editor,,No department,",
                #""Dwayne ""The Rock"" Johnson",rock@example.com,'=cmd|' /C calc'!A0,"#,
                #""Lefèvre, Zoë",zoe@example.com,IT,"# + (given ?? "?"),
                "",
            ].joined(separator: "\r\n")
            #expect(response.text == expected)
            #expect(try await client.send(.get, "/announcements/\(id)/reach", headers: [.accept: "text/csv"], as: .reader).status == .forbidden)
            #expect(try await client.send(.get, "/announcements/999/reach", as: .editor).status == .notFound)
        }
    }

    @Test("a CSV field with a line break is quoted whole, with its quotes doubled")
    func csvLineBreak() {
        #expect(ReachCSV.field("two\nlines") == "\"two\nlines\"")
        #expect(ReachCSV.field("say \"hi\"\r\n") == "\"say \"\"hi\"\"\r\n\"")
        #expect(ReachCSV.field("-1") == "'-1" && ReachCSV.field("plain") == "plain")
    }

    @Test("opened counts distinct signed-in readers, by the API, the web page and answers the server gives early, without keeping who", arguments: TestStorage.all)
    func opened(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Canteen menu"}"#)
            for _ in 0..<3 { _ = try await client.send(.get, "/announcements/\(id)", as: .reader) }
            // The same view's answer is kept by now; once the server remembers the other
            // reader's session, they are answered early.
            _ = try await client.send(.get, "/announcements", as: .otherReader)
            let hitsBefore = server.cache.publicAnswerHits
            _ = try await client.send(.get, "/announcements/\(id)", as: .otherReader)
            #expect(server.cache.publicAnswerHits > hitsBefore, "answered early")
            let admin = try await WebPublishingPageTests.signIn(client, as: .admin)
            #expect(try await admin.get(client, "/announcements/\(id)").status == .ok)
            _ = try await client.send(.get, "/announcements/\(id)")  // signed out: not counted
            #expect(try await Self.reach(client, id)["opened"] as? Int == 3)
            let sketch = try await (server.database.database as! any SQLDatabase).select().column("*").from(OpenCounter.schema).all()
            #expect(sketch.count == 3, "one register each, and no column naming anyone")
        }
    }

    @Test("the estimate of distinct readers is off by at most two up to a hundred, and within three standard errors (5 %) beyond")
    func estimate() {
        let key = SymmetricKey(data: Array(repeating: UInt8(7), count: 32))
        for count in [1, 2, 10, 100, 1_000, 20_000] {
            var registers: [Int: Int] = [:]
            for user in 1...count {
                let (register, rank) = OpenCounter.place(user, key: key)
                registers[register] = max(registers[register] ?? 0, rank)
            }
            let estimate = OpenCounter.estimate(ranks: Array(registers.values))
            if count <= 100 {
                #expect(abs(estimate - count) <= 2, "\(count): \(estimate)")
            } else {
                #expect(abs(Double(estimate - count)) <= 0.05 * Double(count), "\(count): \(estimate)")
            }
        }
    }
}

/// The name the report gives the audience with no department.
enum DepartmentReachName {
    static let none = "No department"
}
