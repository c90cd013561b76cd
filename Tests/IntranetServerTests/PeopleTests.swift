import Foundation
import HTTPTypes
import HummingbirdTesting
import Spearal
import SQLKit
import Testing
@testable import IntranetServer

/// The staff directory on a seeded database (``SeedPeople``): ids follow the seed's order, so
/// Margit Olsen (the top) is 1, Zoë Lefèvre 3 (reports: Kwame Mensah 9, Lena Fischer 10),
/// Lena's report Pieter de Vries 22, and his report Ana Ferreira 31.
@Suite("People: the directory, its integrity rules and its two representations")
struct PeopleTests {
    private func ids(_ response: TestResponse) throws -> [Int] {
        try response.objects().compactMap { $0["id"] as? Int }
    }

    @Test("a new database holds a believable organisation: 40 people over five levels, one top, unique addresses", arguments: TestStorage.all)
    func seeded(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let list = try await client.send(.get, "/people?max=100")
            #expect(list.headers[.total] == "40")
            let people = try list.objects()
            #expect(Set(people.compactMap { $0["email"] as? String }).count == 40)
            #expect(people.filter { $0["managerId"] is NSNull }.compactMap { $0["name"] as? String } == ["Margit Olsen"])
            let chain = try await client.send(.get, "/people/31/chain")
            #expect(try ids(chain) == [31, 22, 10, 3, 1], "the deepest people are five levels down")
            #expect(people.contains { $0["name"] as? String == "João Gonçalves" && $0["jobTitle"] as? String == "Facilities Manager" })
        }
    }

    @Test("q searches name, e-mail, job title and department, ignoring case and accents; wildcards are literal", arguments: TestStorage.all)
    func search(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            for query in ["lefevre", "ZOË", "zoe.lef", "Lefèvre"] {
                #expect(try ids(await client.send(.get, "/people?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")) == [3], "\(query)")
            }
            let heads = try await client.send(.get, "/people?q=head+of&max=100")
            #expect(heads.headers[.total] == "5")
            let finance = try await client.send(.get, "/people?q=FINANCE&max=2&sort=name&order=desc")
            #expect(finance.headers[.total] == "6")
            #expect(try finance.objects().compactMap { $0["name"] as? String } == ["Tomasz Kowalski", "Priya Raman"])
            #expect(finance.headers[.link]?.contains("</people?q=FINANCE&sort=name&order=desc&max=2&offset=2>; rel=\"next\"") == true)
            #expect(try await client.send(.get, "/people?q=%25").headers[.total] == "0")
            for text in ["%22%22%22", "a%22b%22c", "zo*", "NOT+AND+OR", "(((", "x%5C%25_"] {
                let odd = try await client.send(.get, "/people?q=\(text)")
                #expect(odd.status == .ok && odd.headers[.total] == "0", "search syntax is literal: \(text)")
            }
            #expect(try await client.send(.get, "/people?q=\(String(repeating: "a", count: 201))").status == .badRequest)
            #expect(try await client.send(.get, "/people?q=a&q=b").status == .badRequest)
            let joiners = "a" + String(repeating: "%E2%80%8D", count: 200)
            #expect(try await client.send(.get, "/people?q=\(joiners)").status == .badRequest, "201 code points are one character but over the limit")
            for control in ["%00", "zo%00e", "a%0Ab", "%C2%AE9%C3%B9%25%F3%9A%83%A4%C3%AF%00"] {
                let refused = try await client.send(.get, "/people?q=\(control)&sort=department&order=desc")
                #expect(refused.status == .badRequest && refused.text.contains("control characters"), "found by schemathesis: was a 500")
            }
            let badSort = try await client.send(.get, "/people?sort=title")
            #expect(badSort.status == .badRequest)
            #expect(badSort.text.contains("name, id, email, jobTitle, department"))
        }
    }

    @Test("the search index follows every write: a new name is found, an old one no longer, a deleted person never", arguments: TestStorage.all)
    func searchFollowsWrites(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let created = try await client.send(.post, "/people", json: #"{"name":"Quentin Quux","email":"qq@brightwater.example","jobTitle":"Tester","department":"QA"}"#)
            let id = try #require(try created.object()["id"] as? Int)
            #expect(try ids(await client.send(.get, "/people?q=quux")) == [id])
            #expect(try await client.send(.patch, "/people/\(id)", json: #"{"name":"Quentin Zorro"}"#).status == .ok)
            #expect(try ids(await client.send(.get, "/people?q=quux")) == [])
            #expect(try ids(await client.send(.get, "/people?q=zorro")) == [id])
            #expect(try ids(await client.send(.get, "/people?q=zo&max=100")).contains(id), "two letters: no trigram, still found")
            #expect(try await client.send(.delete, "/people/\(id)").status == .noContent)
            #expect(try ids(await client.send(.get, "/people?q=zorro")) == [])
            let sql = try #require(server.database.database as? any SQLDatabase)
            struct Row: Decodable { let name: String }
            let index = storage == .postgres
                ? "SELECT indexname AS name FROM pg_indexes WHERE indexname = 'people_search_key_trgm_idx' AND schemaname = current_schema()"
                : "SELECT name FROM sqlite_master WHERE name = 'people_search'"
            #expect(try await sql.raw(SQLQueryString(index)).all(decoding: Row.self).count == 1, "the search is indexed")
            if storage == .postgres {
                // An index that could not be made at migration (no pg_trgm then) is made at a later start.
                try await sql.raw("DROP INDEX people_search_key_trgm_idx").run()
                try await AddPeopleSearchIndex.ensurePostgresIndex(on: server.database.database)
                #expect(try await sql.raw(SQLQueryString(index)).all(decoding: Row.self).count == 1, "made again")
            }
        }
    }

    @Test("a person links manager and reports by id; expand embeds summaries; the ETag revalidates and changes with the reports", arguments: TestStorage.all)
    func detail(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let zoe = try await client.send(.get, "/people/3")
            let object = try zoe.object()
            #expect(object["name"] as? String == "Zoë Lefèvre")
            #expect(object["managerId"] as? Int == 1)
            #expect(object["reportIds"] as? [Int] == [9, 10])
            #expect(object["manager"] == nil && object["reports"] == nil)
            #expect(zoe.headers[.apiVersion] == "2.0" && zoe.headers[.cacheControl] == "public, no-cache")
            let etag = try #require(zoe.headers[.eTag])
            #expect(try await client.send(.get, "/people/3", headers: [.ifNoneMatch: etag]).status == .notModified)

            let expanded = try await client.send(.get, "/people/3?expand=manager,reports").object()
            #expect((expanded["manager"] as? [String: Any])?["name"] as? String == "Margit Olsen")
            #expect((expanded["reports"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Kwame Mensah", "Lena Fischer"])
            #expect(try await client.send(.get, "/people/3?expand=boss").status == .badRequest)
            #expect(try await client.send(.get, "/people/3", version: "1.0").object()["reportIds"] as? [Int] == [9, 10])

            // A new report changes what Zoë's answer shows, so her tag changes though she did not.
            let created = try await client.send(.post, "/people", json: #"{"name":"New Hire","email":"new.hire@brightwater.example","jobTitle":"Analyst","department":"IT","managerId":3}"#)
            #expect(created.status == .created)
            let newID = try #require(try created.object()["id"] as? Int)
            let after = try await client.send(.get, "/people/3", headers: [.ifNoneMatch: etag])
            #expect(after.status == .ok)
            #expect(try after.object()["reportIds"] as? [Int] == [9, 10, newID])
            #expect(after.headers[.eTag]?.hasPrefix("\"3.1.") == true, "If-Match still reads id and revision")

            #expect(try await client.send(.get, "/people/999").status == .notFound)
            #expect(try await client.send(.get, "/people/abc").status == .notFound)
            #expect(try await client.send(.get, "/people/999/chain").status == .notFound)
        }
    }

    @Test("GET /org in JSON is one nested tree holding everyone once", arguments: TestStorage.all)
    func organisationJSON(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let roots = try await client.send(.get, "/org").objects()
            #expect(roots.count == 1)
            var seen: [Int] = []
            func walk(_ node: [String: Any], depth: Int) -> Int {
                seen.append(node["id"] as? Int ?? 0)
                let reports = node["reports"] as? [[String: Any]] ?? []
                #expect(node["reportIds"] as? [Int] == reports.compactMap { $0["id"] as? Int })
                return reports.map { walk($0, depth: depth + 1) }.max() ?? depth
            }
            #expect(walk(roots[0], depth: 1) == 5)
            #expect(seen.count == 40 && Set(seen).count == 40)
        }
    }

    @Test("a loop of managers made by hand in the database still shows everyone once in the org chart, cut at one member", arguments: TestStorage.all)
    func organisationWithHandMadeLoop(_ storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            // Margit Olsen (1, the top) put under Pieter de Vries (22): 1 → 22 → 10 → 3 → 1.
            let sql = try #require(server.database.database as? any SQLDatabase)
            try await sql.raw("UPDATE people SET manager_id = 22 WHERE id = 1").run()
            server.changes.receive(.people)  // as the change feed would; SQLite has none
            let roots = try await client.send(.get, "/org").objects()
            var seen: [Int] = []
            func walk(_ node: [String: Any]) {
                seen.append(node["id"] as? Int ?? 0)
                (node["reports"] as? [[String: Any]] ?? []).forEach(walk)
            }
            roots.forEach(walk)
            #expect(seen.count == 40 && Set(seen).count == 40, "everyone once")
            #expect(roots.compactMap { $0["id"] as? Int } == [10], "cut at the loop's first member by name, Lena Fischer")
            #expect(roots.first?["managerId"] as? Int == 3, "who still names her manager")

            let graph = try await client.send(.get, "/org", headers: [.accept: "application/spearal"]).spearal()
            defer { graph.dismantle() }
            guard case .collection(let top) = graph else {
                Issue.record("not a collection")
                return
            }
            var beans = Set<ObjectIdentifier>()
            func visit(_ bean: SpearalBean) {
                guard beans.insert(ObjectIdentifier(bean)).inserted, case .collection(let reports)? = bean["reports"] else { return }
                for case .bean(let report) in reports.elements { visit(report) }
            }
            for case .bean(let root) in top.elements { visit(root) }
            #expect(beans.count == 40)
            let page = try await client.send(.get, "/org", headers: [.accept: "text/html"])
            #expect(page.status == .ok && page.text.contains("Margit Olsen") && page.text.contains("Lena Fischer"))
        }
    }

    @Test("GET /org in Spearal is one graph: everyone once, each report's manager the very same object")
    func organisationSpearal() async throws {
        try await withTestServer { _, client in
            let answer = try await client.send(.get, "/org", headers: [.accept: "application/spearal"])
            let value = try answer.spearal()
            defer { value.dismantle() }
            guard case .collection(let roots) = value, case .bean(let top)? = roots.elements.first else {
                Issue.record("not a collection of beans")
                return
            }
            var beans: [ObjectIdentifier: SpearalBean] = [:]
            func walk(_ bean: SpearalBean) {
                beans[ObjectIdentifier(bean)] = bean
                guard case .collection(let reports)? = bean["reports"] else { return }
                for case .bean(let report) in reports.elements {
                    guard case .bean(let manager)? = report["manager"] else {
                        Issue.record("\(report.string("name") ?? "?") has no manager object")
                        continue
                    }
                    #expect(manager === bean, "a report's manager is a reference to the manager, not a copy")
                    walk(report)
                }
            }
            walk(top)
            #expect(beans.count == 40)
            #expect(top["manager"]?.isNull == true)
            #expect(top.className == "intranet.Person")
            let json = try await client.send(.get, "/org")
            #expect(answer.body.readableBytes < json.body.readableBytes, "references make the graph smaller than the nested tree")
        }
    }

    @Test("a Spearal person carries manager and reports as objects; the property filter applies to them too")
    func spearalDetail() async throws {
        try await withTestServer { _, client in
            let zoe = try await client.send(.get, "/people/3", headers: [.accept: "application/spearal"]).bean()
            defer { SpearalValue.bean(zoe).dismantle() }
            guard case .bean(let manager)? = zoe["manager"], case .collection(let reports)? = zoe["reports"] else {
                Issue.record("manager and reports are not objects")
                return
            }
            #expect(manager.string("name") == "Margit Olsen")
            #expect(!manager.isDefined("manager") && !manager.isDefined("reports"), "a person at the edge of the answer carries no links")
            let reportNames = reports.elements.compactMap { element -> String? in
                guard case .bean(let report) = element else { return nil }
                if case .bean(let back)? = report["manager"] { #expect(back === zoe) }
                return report.string("name")
            }
            #expect(reportNames == ["Kwame Mensah", "Lena Fischer"])

            let filtered = try await client.send(
                .get, "/people/3", headers: [.accept: "application/spearal", .spearalPropertyFilter: "intranet.Person#name,manager"]).bean()
            defer { SpearalValue.bean(filtered).dismantle() }
            #expect(filtered.names == ["id", "name", "manager"])
            if case .bean(let boss)? = filtered["manager"] { #expect(boss.names == ["id", "name"]) }
            let json = try await client.send(.get, "/people/3", headers: [.spearalPropertyFilter: "intranet.Person#name,manager"]).object()
            #expect(Set(json.keys) == ["id", "name", "managerId"], "in JSON, manager keeps managerId")
            #expect(try await client.send(.get, "/people/3?fields=boss").status == .badRequest)
        }
    }

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

    @Test("/users/me links to the signed-in account's person; people's routes answer 405, 406, 413 and 415 as announcements do")
    func accountLinkAndHTTPRules() async throws {
        try await withTestServer(configure: { $0.maxBodySize = 2_000 }) { _, client in
            #expect(try await client.send(.get, "/users/me", as: .reader).headers[.link] == nil, "no person yet")
            let linked = try await client.send(.post, "/people", json: #"{"name":"Rita Reader","email":"rita@brightwater.example","jobTitle":"Reader","department":"IT","userId":\#(TestUser.reader.id)}"#)
            let id = try #require(try linked.object()["id"] as? Int)
            let me = try await client.send(.get, "/users/me", as: .reader)
            #expect(me.headers[.link] == "</people/\(id)>; rel=\"person\"")
            #expect(try Set(me.object().keys) == ["id", "username", "displayName", "role"], "the account keeps its shape")
            #expect(try await client.send(.get, "/users/me", as: .editor).headers[.link] == nil)

            let trace = try await client.send(HTTPRequest.Method("TRACE")!, "/people/3")
            #expect(trace.status == .methodNotAllowed && trace.headers[.allow] == "GET, HEAD, PUT, PATCH, DELETE")
            #expect(try await client.send(.post, "/org").headers[.allow] == "GET, HEAD")
            #expect(try await client.send(.get, "/people", headers: [.accept: "text/csv"]).status == .notAcceptable)
            #expect(try await client.send(.get, "/people/3", version: "3.0").status == .notAcceptable)
            let text = try await client.send(.post, "/people", headers: [.contentType: "text/plain"], json: "name=x")
            #expect(text.status == .unsupportedMediaType)
            let large = try await client.send(.post, "/people", json: #"{"name":"\#(String(repeating: "x", count: 3_000))"}"#)
            #expect(large.status == .contentTooLarge)
            #expect(try await client.send(.get, "/people").headers[.total] == "41", "nothing else was created")
        }
    }

    @Test("the seed runs once: a restart after everyone was deleted leaves the directory empty")
    func seededOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("people-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("intranet.sqlite").path
        var configuration = AppConfiguration()
        configuration.storage = .sqliteFile(path: path)
        configuration.logLevel = .warning
        let first = try await makeServer(configuration)
        try await PersonModel.query(on: first.database.database).delete()
        await first.database.close()
        let second = try await makeServer(configuration)
        #expect(try await PersonModel.query(on: second.database.database).count() == 0)
        await second.database.close()
    }
}

extension PeopleTests {
    static let phones = ["", "  ", "\t", "+351 21 555 0100", " 12 ", "(030) 123-45 x12", "abc", "12a", "+", "١٢٣"]

    @Test("the OpenAPI pattern of a person's phone admits exactly the phones the server accepts", arguments: phones)
    func documentedPhoneSyntax(phone: String) async throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let properties = try #require((schemas["PersonPatch"] as? [String: Any])?["properties"] as? [String: Any])
        let pattern = try NSRegularExpression(pattern: try #require((properties["phone"] as? [String: Any])?["pattern"] as? String))
        let documented = pattern.firstMatch(in: phone, range: NSRange(phone.startIndex..., in: phone)) != nil
        try await withTestServer { _, client in
            let answer = try await client.send(.patch, "/people/3", json: #"{"phone":\#(Body.string(phone))}"#)
            #expect((answer.status == .ok) == documented, "\(answer.status) for \"\(phone)\", documented \(documented ? "valid" : "invalid")")
        }
    }
}
