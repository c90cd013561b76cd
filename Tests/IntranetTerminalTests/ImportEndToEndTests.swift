import Foundation
import Testing
@testable import IntranetTerminal

/// `intranet import wordpress`: the built binary uploads an export to a live server and prints
/// the same report as the server's own `intranet-server import wordpress`.
@Suite("Importing a WordPress export from the terminal")
struct ImportEndToEndTests {
    static let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IntranetServerTests/Fixtures/wordpress/harbour-2024.xml")

    @Test("an admin imports: a dry run, the import, a second run that changes nothing, JSON output; a reader is refused with 77, a bad file with 65")
    func importsFromTheTerminal() async throws {
        try await withLiveAccountServer { live in
            let server = live.url.absoluteString
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-import-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            func intranet(_ arguments: [String], input: String = "") async throws -> RunResult {
                try await BuiltBinary.run(arguments + ["--server", server], input: Data(input.utf8), environment: ["XDG_CONFIG_HOME": home.path])
            }
            let signedOut = try await intranet(["import", "wordpress", Self.export.path])
            _ = try await intranet(["login", "--username", LiveAdmin.username, "--password-stdin"], input: LiveAdmin.password + "\n")

            let dry = try await intranet(["import", "wordpress", Self.export.path, "--dry-run"])
            let real = try await intranet(["import", "wordpress", Self.export.path, "--output", "json"])
            let again = try await intranet(["import", "wordpress", Self.export.path])
            let list = try await intranet(["announcements", "--output", "json", "--per-page", "100"])
            let broken = home.appendingPathComponent("broken.xml")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try Data("<rss><channel>".utf8).write(to: broken)
            let malformed = try await intranet(["import", "wordpress", broken.path])
            let missing = try await intranet(["import", "wordpress", home.appendingPathComponent("none.xml").path])

            #expect(signedOut.status == 77, "\(signedOut.errors)")
            #expect(dry.status == 0, "\(dry.errors)")
            #expect(dry.output.hasPrefix("Dry run of the import from https://intranet.harbour-works.example (WXR 1.2)\n  created: 9, updated: 0, unchanged: 0, withdrawn: 0\n"), "\(dry.output)")
            #expect(dry.errors.contains("uploading \(Self.export.path)") && dry.errors.contains("uploaded; the server is importing"), "plain progress lines off a terminal: \(dry.errors)")
            #expect(real.status == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(real.output.utf8)) as? [String: Any])
            #expect(report["created"] as? Int == 9)
            #expect(report["dryRun"] as? Bool == false)
            #expect(again.status == 0 && again.output.contains("created: 0, updated: 0, unchanged: 9, withdrawn: 0"), "\(again.output)")
            let titles = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]]).compactMap { $0["title"] as? String }
            #expect(titles.contains("Pictures from the quay 🎉⚓"))
            #expect(malformed.status == 65, "\(malformed.status) \(malformed.errors)")
            #expect(malformed.errors.contains(/line \d+, column \d+/), "\(malformed.errors)")
            #expect(missing.status == 66 && missing.errors.contains("cannot read"), "\(missing.errors)")
        }
    }

    @Test("the progress bar draws the share done and what it counts")
    func bar() {
        #expect(ImportProgressDisplay.bar("uploading", 5_000_000, of: 20_000_000, detail: "5.0 MB of 20.0 MB")
            == "uploading [#######-----------------------] 25% 5.0 MB of 20.0 MB")
        #expect(ImportProgressDisplay.bar("importing", 20_000_000, of: 20_000_000, detail: "9800 items")
            == "importing [##############################] 100% 9800 items")
    }
}
