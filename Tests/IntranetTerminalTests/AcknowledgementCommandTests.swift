import Foundation
import IntranetAPI
import IntranetClient
import Testing

/// `intranet ack`, `intranet pending` and `intranet reach`, the built binary against a live
/// server.
@Suite("Acknowledgements in the terminal")
struct AcknowledgementCommandTests {
    @Test("a reader lists what waits, confirms it, and the editor sees the reach as a table per department and as CSV")
    func ackPendingReach() async throws {
        try await withLiveAccountServer { live in
            let server = live.url.absoluteString
            let editor = IntranetClient(baseURL: live.url, apiVersion: .v3_0)
            _ = try await editor.session.login(username: LiveEditor.username, password: LiveEditor.password)
            let due = try #require(ISO8601DateFormatter().date(from: "2030-03-17T17:45:00Z"))
            let post = try await editor.announcements.create(AnnouncementDraft(
                title: "New leave policy", body: "<p>Read it.</p>", acknowledgement: AcknowledgementSetting(dueAt: due)))
            let admin = FileManager.default.temporaryDirectory.appendingPathComponent("ack-admin-\(UUID().uuidString)").path
            let asAdmin = ["XDG_CONFIG_HOME": admin, "TZ": "UTC"]
            let login = try await BuiltBinary.run(
                ["login", "--server", server, "--username", LiveAdmin.username, "--password-stdin"], input: Data((LiveAdmin.password + "\n").utf8),
                environment: asAdmin)
            #expect(login.status == 0, "\(login.errors)")

            let pending = try await BuiltBinary.run(["pending", "--server", server], environment: asAdmin)
            #expect(pending.status == 0, "\(pending.errors)")
            let rows = pending.output.split(separator: "\n").map(String.init)
            #expect(rows.first?.hasPrefix("ID  DUE") == true, "\(pending.output)")
            #expect(rows.contains { $0.hasPrefix(" \(post.id)  ") && $0.hasSuffix("New leave policy") && $0.contains("2030") }, "\(pending.output)")
            #expect(rows.last == "1 of 1 waiting · confirm with: intranet ack ID")

            let ack = try await BuiltBinary.run(["ack", String(post.id), "--server", server], environment: asAdmin)
            #expect(ack.status == 0, "\(ack.errors)")
            #expect(ack.output.hasPrefix("Confirmed announcement \(post.id) (round 1) at "), "\(ack.output)")
            let json = try await BuiltBinary.run(["ack", String(post.id), "--server", server, "--output", "json"], environment: asAdmin)
            #expect(json.output.hasPrefix(#"{"acknowledgedAt":""#) && json.output.contains(#""round":1"#), "\(json.output)")
            let nothing = try await BuiltBinary.run(["pending", "--server", server], environment: asAdmin)
            #expect(nothing.output == "Nothing waits for your confirmation.\n")
            let notAsked = try await BuiltBinary.run(["ack", "1", "--server", server], environment: asAdmin)
            #expect(notAsked.status == 75, "a conflict: \(notAsked.errors)")
            let shown = try await BuiltBinary.run(["announcements", "show", String(post.id), "--server", server], environment: asAdmin)
            #expect(shown.output.contains("You confirmed it "), "\(shown.output)")

            let editorHome = FileManager.default.temporaryDirectory.appendingPathComponent("ack-editor-\(UUID().uuidString)").path
            let asEditor = ["XDG_CONFIG_HOME": editorHome, "TZ": "UTC"]
            _ = try await BuiltBinary.run(
                ["login", "--server", server, "--username", LiveEditor.username, "--password-stdin"], input: Data((LiveEditor.password + "\n").utf8),
                environment: asEditor)
            let list = try await BuiltBinary.run(["announcements", "--server", server], environment: asEditor)
            #expect(list.output.contains("[confirm] New leave policy"), "\(list.output)")
            let reach = try await BuiltBinary.run(["reach", String(post.id), "--server", server], environment: asEditor)
            #expect(reach.status == 0, "\(reach.errors)")
            let lines = reach.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("Reach of announcement \(post.id) · round 1 · due ") == true, "\(reach.output)")
            #expect(lines.contains("Audience 2 · confirmed 1 · pending 1 · overdue 0"), "\(reach.output)")
            #expect(lines.contains { $0.hasPrefix("No department") && $0.hasSuffix("50 %") }, "\(reach.output)")
            let csv = try await BuiltBinary.run(["reach", String(post.id), "--csv", "--server", server], environment: asEditor)
            #expect(csv.status == 0)
            let csvLines = csv.output.components(separatedBy: "\r\n")
            #expect(csvLines.first == "name,email,department,acknowledged_at")
            #expect(csvLines.contains { $0.hasPrefix("Ada Admin,,No department,20") }, "\(csv.output)")
            #expect(csvLines.contains("Eddie Editor,,No department,"), "\(csv.output)")
            let refused = try await BuiltBinary.run(["reach", String(post.id), "--server", server], environment: asAdmin.merging(["XDG_CONFIG_HOME": NSTemporaryDirectory() + "nobody-\(UUID().uuidString)"]) { _, new in new })
            #expect(refused.status == 77, "signed out: \(refused.errors)")
        }
    }
}
