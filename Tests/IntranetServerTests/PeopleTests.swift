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
    func ids(_ response: TestResponse) throws -> [Int] {
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
            #expect(zoe.headers[.apiVersion] == "3.0" && zoe.headers[.cacheControl] == "public, no-cache")
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
            #expect(try await client.send(.get, "/people/3", version: "4.0").status == .notAcceptable)
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
