import Foundation
import IntranetAPI
import IntranetClient
import Testing

/// The built `intranet` binary, run as a process, against a real server on a loopback port.
@Suite("The intranet binary against a live server")
struct EndToEndTests {
    @Test("lists the six seeded announcements as a table, and as the server's JSON")
    func list() async throws {
        try await withLiveServer { url in
            let table = try await BuiltBinary.run(["announcements", "--server", url.absoluteString])
            let json = try await BuiltBinary.run(["announcements", "--server", url.absoluteString, "--output", "json", "--api-version", "1.0"])

            #expect(table.status == 0)
            #expect(table.errors.isEmpty)
            #expect(table.output.hasPrefix("ID  TITLE\n 1  Welcome to the new Brightwater intranet\n 2  Office move: Harbour Building, floors 3 and 4\n"))
            #expect(table.output.hasSuffix(" 6  New parental leave policy from 1 January\nPage 1 of 1 · 6 announcements\n"))
            let items = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
            #expect(items?.count == 6)
            #expect(items?.allSatisfy { $0["body"] is String } == true)
        }
    }

    @Test("show under 1.0 takes the body from the list with no detail request; under 2.0 it fetches it by id")
    func showUnderBothVersions() async throws {
        try await withLiveServer { url in
            let server = url.absoluteString
            let old = try await BuiltBinary.run(["announcements", "show", "2", "--server", server, "--api-version", "1.0", "--verbose"])
            let new = try await BuiltBinary.run(["announcements", "show", "2", "--server", server, "--api-version", "2.0", "--verbose"])

            #expect(old.status == 0)
            #expect(old.errors.contains("GET \(server)/announcements?page=1&per_page=100 (Accept-Version: 1.0) → 200 in"))
            #expect(!old.errors.contains("/announcements/2"))
            #expect(old.errors.contains("announcement 2 taken from the list: no detail request"))
            #expect(new.status == 0)
            #expect(new.errors.hasPrefix("GET \(server)/announcements/2 (Accept-Version: 2.0) → 200 in"))
            #expect(!new.errors.contains("/announcements?"))
            for output in [old.output, new.output] {
                #expect(output.hasPrefix("Office move: Harbour Building, floors 3 and 4\nAnnouncement 2"))
                #expect(output.contains("The wait is over: on Monday 7 December the Lisbon team moves from Rua das"))
                #expect(output.contains("\n1. Pack your desk into the labelled crates (two per person)\n2. Take plants"))
                #expect(output.hasSuffix("\n[1] https://maps.brightwater.example/harbour\n"))
                #expect(!output.contains("<"))
            }
            #expect(!old.output.contains("created"))
            #expect(new.output.contains(" · created 20"))
        }
    }

    @Test("sign in, create from standard input, update, a conflicting update, delete, then not found")
    func editorLifecycle() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_CONFIG_HOME": home.path]
        try await withLiveServer { url in
            let server = url.absoluteString
            func intranet(_ arguments: [String], input: Data = Data()) async throws -> RunResult {
                try await BuiltBinary.run(arguments + ["--server", server], input: input, environment: environment)
            }
            let signedOut = try await intranet(["announcements", "create", "--title", "Fire drill"])
            let login = try await intranet(["login", "--username", LiveEditor.username, "--password-stdin"], input: Data((LiveEditor.password + "\n").utf8))
            let created = try await intranet(["announcements", "create", "--title", "Fire drill", "--body", "-"], input: Data("<p>Thursday <strong>10:00</strong></p>".utf8))
            let id = created.output.trimmingCharacters(in: .newlines)
            let updated = try await intranet(["announcements", "update", id, "--title", "Fire drill moved"])
            let shown = try await intranet(["announcements", "show", id])

            let sdk = IntranetClient(baseURL: url)
            try await sdk.session.login(username: LiveEditor.username, password: LiveEditor.password)
            let stale = try await sdk.announcements.readVersioned(id: try #require(Int(id)))
            _ = try await sdk.announcements.patch(AnnouncementPatch(title: "Changed meanwhile"), of: stale)
            let conflict = try await intranet(["announcements", "update", id, "--clear-body", "--if-match", try #require(stale.etag)])
            let afterConflict = try await sdk.announcements.read(id: try #require(Int(id)))
            let refused = try await intranet(["announcements", "delete", id])
            let deleted = try await intranet(["announcements", "delete", id, "--yes"])
            let gone = try await intranet(["announcements", "show", id])
            let logout = try await intranet(["logout"])

            #expect(signedOut.status == 77)
            #expect(signedOut.errors == "intranet: not signed in, or the session has ended (401) — sign in with: intranet login --server \(server)\n")
            #expect(login.status == 0)
            #expect(login.output == "Signed in to \(server) as Eddie Editor (editor, editor).\n")
            #expect(created.status == 0)
            #expect(id == "7")
            #expect(updated.status == 0 && updated.output == "Updated announcement 7.\n")
            #expect(shown.output.hasPrefix("Fire drill moved\nAnnouncement 7 · created "))
            #expect(shown.output.hasSuffix("\n\nThursday 10:00\n"))
            #expect(conflict.status == 75)
            #expect(conflict.errors == "intranet: announcement 7 was changed by someone else since it was read (it is now titled “Changed meanwhile”); nothing was saved — look at it again and retry\n")
            #expect(afterConflict.body == "<p>Thursday <strong>10:00</strong></p>")
            #expect(refused.status == 64)
            #expect(refused.errors.contains("pass --yes"))
            #expect(deleted.status == 0 && deleted.output == "Deleted announcement 7.\n")
            #expect(gone.status == 66)
            #expect(gone.errors == "intranet: announcement 7 does not exist\n")
            #expect(gone.output.isEmpty)
            #expect(logout.output == "Signed out.\n")
        }
    }

    @Test("the server's validation messages come through, status 65")
    func validation() async throws {
        try await withLiveServer { url in
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-e2e-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = ["XDG_CONFIG_HOME": home.path]
            _ = try await BuiltBinary.run(["login", "--server", url.absoluteString, "--username", LiveEditor.username, "--password-stdin"],
                                          input: Data(LiveEditor.password.utf8), environment: environment)
            let result = try await BuiltBinary.run(["announcements", "create", "--server", url.absoluteString, "--title", "   "], environment: environment)

            #expect(result.status == 65)
            #expect(result.errors == "intranet: the server did not accept the new announcement: title must not be empty or only white space\n")
        }
    }

    @Test("a server that is not running is reported in one line with status 69")
    func unreachable() async throws {
        // Port 9 (discard) on loopback: nothing listens there, and unlike the port of a stopped
        // test server, no other test's server can be given it meanwhile.
        let server = "http://127.0.0.1:9"

        let result = try await BuiltBinary.run(["announcements", "--server", server])

        #expect(result.status == 69)
        #expect(result.output.isEmpty)
        #expect(result.errors == "intranet: cannot reach the intranet server at \(server): connection refused — is it running? (swift run intranet-server)\n")
    }
}
