import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import Spearal
import Testing
@testable import IntranetServer

/// The read routes in Spearal: the same data, classes named on the wire, version shapes kept.
@Suite("Spearal answers")
struct SpearalReadTests {
    private let spearal: HTTPFields = [.accept: "application/spearal"]

    @Test("lists are collections of intranet.AnnouncementSummary with exactly the keys of each version's JSON", arguments: TestStorage.all)
    func listShapes(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            for version in ["1.0", "2.0"] {
                let json = try await client.send(.get, "/announcements", version: version).objects()
                let response = try await client.send(.get, "/announcements", version: version, headers: spearal)
                let beans = try response.beans()

                #expect(response.status == .ok)
                #expect(response.headers[.apiVersion] == version)
                #expect(response.headers[.vary] == "Accept, Accept-Version, Spearal-PropertyFilter")
                #expect(beans.map(\.className) == Array(repeating: "intranet.AnnouncementSummary", count: json.count))
                #expect(beans.map(\.names) == json.map { Set($0.keys) })
                #expect(beans.map { $0.int("id") } == json.map { $0["id"] as? Int })
                #expect(beans.map { $0.string("title") } == json.map { $0["title"] as? String })
                #expect(response.headers[.total] == "6")
            }
        }
    }

    @Test("a detail is an intranet.Announcement with each version's keys, dates as DATE_TIME, readers for editors", arguments: TestStorage.all)
    func detailShapes(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let v1 = try await client.send(.get, "/announcements/2", version: "1.0", headers: spearal).bean()
            let v2 = try await client.send(.get, "/announcements/2", version: "2.0", headers: spearal).bean()
            let editor = try await client.send(.get, "/announcements/2", version: "2.0", headers: spearal, as: .editor).bean()
            let json = try await client.send(.get, "/announcements/2", version: "2.0").object()

            #expect([v1, v2, editor].map(\.className) == Array(repeating: "intranet.Announcement", count: 3))
            #expect(v1.names == ["id", "title", "body"])
            #expect(v2.names == ["id", "title", "body", "createdAt", "updatedAt"])
            #expect(editor.names == v2.names.union(["readers"]))
            #expect(v2.string("body") == json["body"] as? String)
            guard case .dateTime(let created)? = v2["createdAt"] else {
                Issue.record("createdAt is not a DATE_TIME: \(String(describing: v2["createdAt"]))")
                return
            }
            #expect(IntranetJSON.format(created.date) == json["createdAt"] as? String)
            #expect(editor["readers"]?.isNull == true)
        }
    }

    @Test("Accept chooses the format by q-values and specificity; JSON is the default and wins ties", arguments: [
        ("application/spearal", "application/spearal"),
        ("application/json;q=0.5, application/spearal", "application/spearal"),
        ("application/spearal;q=0.4, application/json;q=0.9", "application/json"),
        ("application/spearal, application/json", "application/json"),
        ("*/*", "application/json"),
        ("application/*", "application/json"),
        ("application/json;q=0, */*", "application/spearal"),
        // A browser (text/html ranked first) gets the web page instead: WebFrontEndTests.
        ("text/html;q=0.05, application/spearal;q=0.1", "application/spearal"),
        ("application/spearal;q=2, application/json", "application/json"),
        ("application/json;q=-1, application/spearal;q=0.2", "application/spearal"),
        ("", "application/json"),
    ])
    func negotiation(accept: String, expected: String) async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements/2", headers: [.accept: accept])

            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == expected)
        }
    }

    @Test("an Accept allowing neither JSON nor Spearal is 406 naming both", arguments: [
        "text/html", "application/json;q=0, application/spearal;q=0", "application/xml, text/*",
    ])
    func notAcceptable(accept: String) async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements", headers: [.accept: accept])

            #expect(response.status == .notAcceptable)
            #expect(response.headers[.contentType] == "application/problem+json")
            let detail = try #require(try response.object()["detail"] as? String)
            #expect(detail.contains("application/json") && detail.contains("application/spearal"))
        }
    }

    @Test("the v parameter of application/spearal picks the version")
    func versionParameter() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements/2", headers: [.accept: "application/spearal;v=1.0"])

            #expect(response.headers[.apiVersion] == "1.0")
            #expect(try response.bean().names == ["id", "title", "body"])
        }
    }

    @Test("errors stay application/problem+json when Spearal was asked for", arguments: [
        ("/announcements/999", HTTPResponse.Status.notFound), ("/users/me", .unauthorized), ("/announcements?max=0", .badRequest),
    ])
    func errorsStayProblemJSON(path: String, status: HTTPResponse.Status) async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, path, headers: spearal)

            #expect(response.status == status)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(try response.object()["status"] as? Int == status.code)
        }
    }

    @Test("accounts answer in Spearal: /users/me, /users, /users/{id}, each an intranet.User", arguments: TestStorage.all)
    func accountReads(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let me = try await client.send(.get, "/users/me", headers: spearal, as: .reader).bean()
            let users = try await client.send(.get, "/users", headers: spearal, as: .admin).beans()
            let one = try await client.send(.get, "/users/\(try #require(me.int("id")))", headers: spearal, as: .admin).bean()

            #expect(me.className == "intranet.User")
            #expect(me.names == ["id", "username", "displayName", "role"])
            #expect(me.string("username") == "reader" && me.string("role") == "reader")
            #expect(users.count == TestUser.allCases.count && users.allSatisfy { $0.className == "intranet.User" })
            #expect(one.string("username") == "reader")
        }
    }
}

/// The write routes with Spearal bodies: the same validation and meaning as JSON.
@Suite("Spearal request bodies")
struct SpearalWriteTests {
    @Test("POST, PUT and PATCH take Spearal beans and answer Spearal; a PATCH bean is a partial object", arguments: TestStorage.all)
    func writes(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let created = try await client.sendSpearal(.post, "/announcements", properties: [
                ("title", .string("  Spearal post ")), ("body", .string("<p>binary</p>")),
            ])
            #expect(created.status == .created)
            let bean = try created.bean()
            let id = try #require(bean.int("id"))
            #expect(created.headers[.location] == "/announcements/\(id)")
            #expect(bean.string("title") == "Spearal post")

            let replaced = try await client.sendSpearal(.put, "/announcements/\(id)", properties: [("title", .string("Replaced"))])
            #expect(replaced.status == .ok)
            #expect(try replaced.bean()["body"]?.isNull == true)

            // Only body is in the bean: the title stays.
            let patched = try await client.sendSpearal(.patch, "/announcements/\(id)", properties: [("body", .string("<p>new</p>"))])
            #expect(patched.status == .ok)
            #expect(try patched.bean().string("title") == "Replaced")
            #expect(try patched.bean().string("body") == "<p>new</p>")

            // Present with null clears; a property the server does not know is ignored.
            let cleared = try await client.sendSpearal(.patch, "/announcements/\(id)", properties: [
                ("body", .null), ("colour", .string("teal")),
            ])
            #expect(cleared.status == .ok)
            #expect(try cleared.bean()["body"]?.isNull == true)
            let json = try await client.send(.get, "/announcements/\(id)").object()
            #expect(json["title"] as? String == "Replaced" && json["body"] is NSNull)
        }
    }

    @Test("a null title in a Spearal PATCH is 422 as in JSON, and changes nothing")
    func nullTitle() async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements/2").text
            let response = try await client.sendSpearal(.patch, "/announcements/2", properties: [("title", .null)])

            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType] == "application/problem+json")
            let errors = try #require(try response.object()["errors"] as? [[String: Any]])
            #expect(errors.map { $0["field"] as? String } == ["title"])
            #expect(try await client.send(.get, "/announcements/2").text == before)
        }
    }

    @Test("If-Match guards Spearal writes: a tag read in any format or filter works, a stale one is 412")
    func ifMatch() async throws {
        try await withTestServer { _, client in
            let read = try await client.send(.get, "/announcements/2?fields=title", headers: [.accept: "application/spearal"], as: .editor)
            let tag = try #require(read.headers[.eTag])

            let guarded = try await client.sendSpearal(.patch, "/announcements/2", properties: [("title", .string("Guarded"))], headers: [.ifMatch: tag])
            let stale = try await client.sendSpearal(.patch, "/announcements/2", properties: [("title", .string("Stale"))], headers: [.ifMatch: tag])

            #expect(guarded.status == .ok)
            #expect(stale.status == .preconditionFailed)
            #expect(try await client.send(.get, "/announcements/2").object()["title"] as? String == "Guarded")
        }
    }

    @Test("login, user creation and user changes take Spearal bodies", arguments: TestStorage.all)
    func accountWrites(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let login = try await client.sendSpearal(.post, "/login", className: "intranet.LoginRequest", properties: [
                ("username", .string("reader")), ("password", .string(TestUser.password)),
            ], as: .anonymous)
            #expect(login.status == .ok)
            #expect(login.headers[.cacheControl] == "no-store")
            let session = try login.bean()
            #expect(session.className == "intranet.LoginResponse")
            #expect(session.string("token")?.isEmpty == false)
            guard case .bean(let user)? = session["user"] else {
                Issue.record("user is not a bean")
                return
            }
            #expect(user.className == "intranet.User" && user.string("username") == "reader")

            let created = try await client.sendSpearal(.post, "/users", className: "intranet.User", properties: [
                ("username", .string("dana")), ("role", .string("editor")), ("password", .string("long enough secret")),
            ], as: .admin)
            #expect(created.status == .created)
            let id = try #require(try created.bean().int("id"))
            #expect(try created.bean().names == ["id", "username", "displayName", "role"])

            let changed = try await client.sendSpearal(.patch, "/users/\(id)", className: "intranet.User", properties: [
                ("displayName", .string("Dana Q.")),
            ], as: .admin)
            #expect(changed.status == .ok)
            #expect(try changed.bean().string("displayName") == "Dana Q.")
            #expect(try changed.bean().string("role") == "editor")
        }
    }

    @Test("a JSON body keeps working beside Spearal answers")
    func jsonBodySpearalAnswer() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.post, "/announcements", headers: [.accept: "application/spearal"], json: #"{"title":"Mixed"}"#)

            #expect(response.status == .created)
            #expect(try response.bean().string("title") == "Mixed")
        }
    }
}
