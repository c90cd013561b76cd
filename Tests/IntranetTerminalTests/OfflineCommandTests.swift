import Foundation
import Testing

/// A cache directory of its own for one test: `XDG_CACHE_HOME` for the binary.
private func cacheHome() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("intranet-offline-\(UUID().uuidString)")
}

@Suite("The intranet binary offline: kept answers, --offline, notices, cache info and clear", .serialized)
struct OfflineCommandTests {
    @Test("answers read before are shown when the server is gone (with a notice), --offline reads only them, exit 69 for the rest")
    func offline() async throws {
        let home = cacheHome()
        let environment = ["XDG_CACHE_HOME": home.path]
        try await withLiveAccountServer { server in
            let url = server.url.absoluteString
            let list = try await BuiltBinary.run(["announcements", "--server", url], environment: environment)
            let shown = try await BuiltBinary.run(["announcements", "show", "2", "--server", url], environment: environment)
            let again = try await BuiltBinary.run(["announcements", "--server", url, "--verbose"], environment: environment)
            #expect(list.status == 0 && shown.status == 0, "\(list.errors)\(shown.errors)")
            #expect(again.errors.contains("→ 304 in "), "the second read is revalidated: \(again.errors)")
            #expect(again.output == list.output)

            await server.stop()

            let stale = try await BuiltBinary.run(["announcements", "--server", url], environment: environment)
            #expect(stale.status == 0, "\(stale.errors)")
            #expect(stale.output == list.output)
            #expect(stale.errors.hasPrefix("intranet: cannot reach \(url); showing its answer from "))
            #expect(stale.errors.hasSuffix(" ago, kept on this machine\n"))
            #expect(stale.errors.split(separator: "\n").count == 1, "one line: \(stale.errors)")

            let offline = try await BuiltBinary.run(["announcements", "show", "2", "--server", url, "--offline"], environment: environment)
            #expect(offline.status == 0)
            #expect(offline.output == shown.output)
            #expect(offline.errors.isEmpty, "--offline asked for the store: no notice")

            let json = try await BuiltBinary.run(["announcements", "--server", url, "--offline", "--output", "json"], environment: environment)
            #expect(json.status == 0)
            #expect(json.output.hasPrefix("[{\"acknowledgement\":null,\"createdAt\":"), "the kept raw answer: \(json.output.prefix(80))")
            #expect(json.output.contains("\"id\":1,"), "the kept raw answer: \(json.output.prefix(80))")

            let never = try await BuiltBinary.run(["announcements", "show", "3", "--server", url, "--offline"], environment: environment)
            #expect(never.status == 69)
            #expect(never.errors == "intranet: announcement 3 has not been read on this machine yet, so it cannot be shown offline\n")

            let unreachable = try await BuiltBinary.run(["announcements", "show", "3", "--server", url], environment: environment)
            #expect(unreachable.status == 69)
            #expect(unreachable.errors.contains("cannot reach the intranet server at \(url): connection refused"))

            let networkOnly = try await BuiltBinary.run(["announcements", "--server", url, "--cache", "network-only"], environment: environment)
            #expect(networkOnly.status == 69, "network-only never shows kept answers")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent("intranet").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let file = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent("intranet/responses.sqlite").path)
        #expect((file[.posixPermissions] as? Int) == 0o600)
    }

    @Test("answers are kept per server: one server's answer is never shown for another")
    func perServer() async throws {
        let environment = ["XDG_CACHE_HOME": cacheHome().path]
        try await withLiveAccountServer { server in
            let url = server.url.absoluteString
            let list = try await BuiltBinary.run(["announcements", "--server", url], environment: environment)
            #expect(list.status == 0, "\(list.errors)")
            await server.stop()
            // Another server (the same host, another port: nothing listens there).
            let other = try await BuiltBinary.run(["announcements", "--server", "http://127.0.0.1:9"], environment: environment)
            #expect(other.status == 69, "\(other.output)")
            #expect(other.errors.contains("cannot reach the intranet server at http://127.0.0.1:9"))
            #expect(!other.output.contains("Welcome"), "the first server's list is not shown for the second")
            let offline = try await BuiltBinary.run(["announcements", "--server", "http://127.0.0.1:9", "--offline"], environment: environment)
            #expect(offline.status == 69)
        }
    }

    @Test("cache info names the path, entries and size; cache clear forgets everything")
    func infoAndClear() async throws {
        let home = cacheHome()
        let environment = ["XDG_CACHE_HOME": home.path]
        try await withLiveServer { url in
            for id in ["1", "2", "3"] {
                _ = try await BuiltBinary.run(["announcements", "show", id, "--server", url.absoluteString], environment: environment)
            }
        }
        let info = try await BuiltBinary.run(["cache", "info"], environment: environment)
        #expect(info.status == 0)
        #expect(info.output.contains("path      \(home.path)/intranet/responses.sqlite\n"))
        #expect(info.output.contains("entries   3\n"))
        let json = try await BuiltBinary.run(["cache", "info", "--output", "json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["entries"] as? Int == 3)
        #expect((object["bytes"] as? Int ?? 0) > 0)
        #expect(object["maximumBytes"] as? Int == 32 << 20)

        let clear = try await BuiltBinary.run(["cache", "clear"], environment: environment)
        #expect(clear.status == 0)
        #expect(clear.output.hasPrefix("Forgot 3 kept answers ("))
        let after = try await BuiltBinary.run(["cache", "info", "--output", "json"], environment: environment)
        #expect(after.output.contains("\"entries\":0"))
    }

    @Test("two processes writing one store at once keep every answer")
    func concurrentProcesses() async throws {
        let home = cacheHome()
        let environment = ["XDG_CACHE_HOME": home.path]
        try await withLiveAccountServer { server in
            let url = server.url.absoluteString
            // Each walks the six announcements one page at a time: six writes each, interleaved.
            async let first = BuiltBinary.run(["announcements", "--all", "--per-page", "1", "--server", url], environment: environment)
            async let second = BuiltBinary.run(["announcements", "--all", "--per-page", "2", "--server", url], environment: environment)
            let runs = try await [first, second]
            #expect(runs.allSatisfy { $0.status == 0 && $0.errors.isEmpty }, "\(runs.map(\.errors))")
            await server.stop()
            for (perPage, pages) in [(1, 6), (2, 3)] {
                for page in 1...pages {
                    let offline = try await BuiltBinary.run(
                        ["announcements", "--page", "\(page)", "--per-page", "\(perPage)", "--server", url, "--offline"], environment: environment)
                    #expect(offline.status == 0, "page \(page) of \(perPage): \(offline.errors)")
                }
            }
        }
        let json = try await BuiltBinary.run(["cache", "info", "--output", "json"], environment: environment)
        #expect(json.output.contains("\"entries\":9"), "\(json.output)")
    }

    @Test("a damaged store file is moved aside with one line on standard error, and the command still works")
    func damagedStore() async throws {
        let home = cacheHome()
        let directory = home.appendingPathComponent("intranet")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: directory.appendingPathComponent("responses.sqlite"))
        try await withLiveServer { url in
            let run = try await BuiltBinary.run(["announcements", "show", "2", "--server", url.absoluteString], environment: ["XDG_CACHE_HOME": home.path])
            #expect(run.status == 0)
            #expect(run.output.hasPrefix("Office move"))
            #expect(run.errors.hasPrefix("intranet: response store: the file is not an SQLite database; moved it aside and started a fresh store"), "\(run.errors)")
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("responses.sqlite.broken").path))
    }
}
