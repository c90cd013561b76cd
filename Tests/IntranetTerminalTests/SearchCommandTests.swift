import Foundation
import Testing

/// The built `intranet` binary's `search` against a live, seeded server.
@Suite("The intranet binary: search")
struct SearchCommandTests {
    private struct Shell {
        let server: String
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-search-\(UUID().uuidString)")

        func callAsFunction(_ arguments: [String], columns: Int = 80) async throws -> RunResult {
            try await BuiltBinary.run(arguments + ["--server", server], input: Data(),
                                      environment: ["XDG_CONFIG_HOME": home.path, "COLUMNS": String(columns)])
        }
    }

    @Test("search prints both groups as tables within the width; --people and --announcements one; --output json the API's answer; bad use exits 64")
    func search() async throws {
        try await withLiveAccountServer { live in
            let intranet = Shell(server: live.url.absoluteString)
            let both = try await intranet(["search", "lefevre"], columns: 72)
            #expect(both.status == 0, "\(both.errors)")
            let lines = both.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "People · 1 found", "\(both.output)")
            #expect(lines.contains { $0.hasPrefix(" 3  Zoë Lefèvre") && $0.contains("zoe.lefevre@") }, "\(both.output)")
            #expect(lines.contains("Announcements · 1 found"))
            #expect(lines.contains { $0.hasPrefix(" 1  Welcome to the new") }, "\(both.output)")
            #expect(lines.allSatisfy { $0.count <= 72 }, "fits the terminal: \(both.output)")

            let people = try await intranet(["search", "--people", "head", "of"])
            #expect(people.status == 0 && people.output.hasPrefix("People · 5 found") && !people.output.contains("Announcements"), "\(people.output)")
            let posts = try await intranet(["search", "--announcements", "ssh"])
            #expect(posts.status == 0 && posts.output.hasPrefix("Announcements · 1 found") && posts.output.contains(" 4  Security"), "\(posts.output)")
            let nothing = try await intranet(["search", "zzyzx"])
            #expect(nothing.output.contains("Nothing found."))

            let json = try await intranet(["search", "lefevre", "--output", "json"])
            #expect(json.status == 0)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            #expect((answer["people"] as? [String: Any])?["total"] as? Int == 1)

            let both2 = try await intranet(["search", "--people", "--announcements", "x"])
            #expect(both2.status == 64 && both2.errors.contains("cannot be used together"))
            let blank = try await intranet(["search", " "])
            #expect(blank.status == 64 && blank.errors.contains("give the text"))
        }
    }
}
