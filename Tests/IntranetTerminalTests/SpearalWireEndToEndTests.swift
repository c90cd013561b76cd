import Foundation
import Testing

/// The built `intranet` binary speaking Spearal to a real server.
@Suite("The intranet binary with --wire spearal")
struct SpearalWireEndToEndTests {
    @Test("INTRANET_WIRE=spearal: sign in, create, update, show; --verbose names the format and bytes each way")
    func editorRoundTrip() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-wire-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_CONFIG_HOME": home.path, "INTRANET_WIRE": "spearal"]
        try await withLiveServer { url in
            let server = url.absoluteString
            func intranet(_ arguments: [String], input: Data = Data()) async throws -> RunResult {
                try await BuiltBinary.run(arguments + ["--server", server], input: input, environment: environment)
            }
            let login = try await intranet(["login", "--username", LiveEditor.username, "--password-stdin", "--verbose"], input: Data((LiveEditor.password + "\n").utf8))
            let created = try await intranet(["announcements", "create", "--title", "Binary drill", "--body", "-", "--verbose"], input: Data("<p>at <em>ten</em></p>".utf8))
            let id = created.output.trimmingCharacters(in: .newlines)
            let updated = try await intranet(["announcements", "update", id, "--title", "Binary drill moved", "--verbose"])
            let shown = try await intranet(["announcements", "show", id])
            let shownJSON = try await BuiltBinary.run(["announcements", "show", id, "--server", server], environment: ["XDG_CONFIG_HOME": home.path])

            #expect(login.status == 0, "\(login.errors)")
            #expect(login.errors.contains("POST \(server)/login (Accept-Version: 3.0) — sent "))
            #expect(login.errors.contains(" bytes of application/spearal → 200 in "))
            #expect(login.errors.contains("ms, received "))
            #expect(!login.errors.contains(LiveEditor.password))
            #expect(created.status == 0 && id == "7", "\(created.errors)")
            #expect(created.errors.contains(" bytes of application/spearal → 201 in "))
            #expect(updated.status == 0, "\(updated.errors)")
            #expect(updated.errors.contains("PATCH \(server)/announcements/7 (Accept-Version: 3.0) — sent "))
            #expect(updated.errors.hasSuffix(" bytes of application/spearal\n"))
            #expect(shown.status == 0)
            #expect(shown.output.hasPrefix("Binary drill moved\nAnnouncement 7 · created "))
            #expect(shown.output.hasSuffix("\n\nat ten\n"))
            #expect(shown.output == shownJSON.output)
        }
    }

    @Test("show --output spearal prints the server's Spearal answer through the Spearal printer, under both versions")
    func showSpearal() async throws {
        try await withLiveServer { url in
            let server = url.absoluteString
            let v2 = try await BuiltBinary.run(["announcements", "show", "2", "--server", server, "--output", "spearal", "--verbose"])
            let v1 = try await BuiltBinary.run(["announcements", "show", "2", "--server", server, "--output", "spearal", "--api-version", "1.0"])
            let list = try await BuiltBinary.run(["announcements", "--server", server, "--output", "spearal", "--all", "--per-page", "4"])

            #expect(v2.status == 0, "\(v2.errors)")
            #expect(v2.output.hasPrefix("#0 intranet.Announcement {\n\tacknowledgement: nil,\n\tattachments: #1 [],\n\tbody: \"<p>The wait is over"))
            #expect(v2.output.contains("\n\tcreatedAt: 20"))
            #expect(v2.output.contains("\n\ttitle: \"Office move: Harbour Building, floors 3 and 4\""))
            #expect(v2.errors.contains("received "))
            #expect(v2.errors.contains(" bytes of application/spearal"))
            #expect(v1.status == 0)
            #expect(v1.output.hasPrefix("#0 intranet.AnnouncementSummary {\n\tbody: "))
            #expect(!v1.output.contains("createdAt"))
            #expect(list.status == 0)
            #expect(list.output.hasPrefix("#0 ["))
            #expect(list.output.components(separatedBy: "intranet.AnnouncementSummary {").count == 7)
        }
    }

    @Test("a wire that contradicts the output, or an unknown INTRANET_WIRE, is a usage error (64) before any request")
    func contradictions() async throws {
        let jsonOverSpearal = try await BuiltBinary.run(["announcements", "--server", "http://127.0.0.1:9", "--wire", "spearal", "--output", "json"])
        let unknown = try await BuiltBinary.run(["announcements", "--server", "http://127.0.0.1:9"], environment: ["INTRANET_WIRE": "xml"])

        #expect(jsonOverSpearal.status == 64)
        #expect(jsonOverSpearal.errors.contains("--output json prints the server's JSON"))
        #expect(unknown.status == 64)
        #expect(unknown.errors.contains("INTRANET_WIRE must be json or spearal, not “xml”"))
    }
}
