import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ChildProcess
import Logging
import SQLKit
import Testing

#if canImport(Glibc)
import Glibc
@testable import IntranetServer
#endif

/// Serialized, and every blocking wait on a child runs on a Dispatch thread: the cooperative
/// pool has as few threads as the machine has cores, and a child can hold a pipe open (a
/// server started by another test inherits its descriptors), so a blocked cooperative thread
/// could stall every other test of the run.
@Suite("The intranet-server executable", .serialized)
struct ServerBinaryTests {
    /// The built `intranet-server`, beside the test bundle in the build products directory.
    struct BinaryNotBuilt: Error, CustomStringConvertible {
        var description: String { "intranet-server is not built beside the tests" }
    }

    static func binary() throws -> URL {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [products, products.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("intranet-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw BinaryNotBuilt()
    }

    func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-binary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs blocking `work` on a Dispatch thread, never on the cooperative pool.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    /// Runs the binary to completion with `input` on standard input.
    func run(
        _ arguments: [String], in directory: URL, input: String = "", environment: [String: String] = ["DATABASE_URL": ""]
    ) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let process = try launch(arguments, in: directory, environment: environment, input: true)
                    if let stdin = process.standardInput {
                        stdin.write(Data(input.utf8))
                        try stdin.close()
                    }
                    let text = String(decoding: process.standardOutput.readDataToEndOfFile(), as: UTF8.self)
                    continuation.resume(returning: (process.terminationStatus, text))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Starts the binary with standard output and standard error on one pipe.
    func launch(_ arguments: [String], in directory: URL, environment: [String: String] = [:], input: Bool = false) throws -> ChildProcess {
        try ChildProcess(
            executable: try Self.binary(), arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
            directory: directory, input: input)
    }

    @Test("with no database flag it creates intranet.sqlite in the working directory, logs where it listens, answers, and stops on SIGTERM")
    func servesFromWorkingDirectory() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port, log) = try await startServer([], in: directory)
        let (data, response) = try await Self.session.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/announcements")))
        process.terminate()
        let exited = await Self.waitForExit(process, within: 30)

        #expect(exited)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try JSONSerialization.jsonObject(with: data) as? [Any] != nil)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("intranet.sqlite").path))
        #expect(process.terminationStatus == 0)
        #expect(log.whole().contains("intranet-server users create --username admin --role admin"))
    }

    @Test("users create reads the password from standard input; list, set-role, delete and apps create work; bad input is refused")
    func administration() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let created = try await run(["users", "create", "--username", "zoe", "--role", "editor", "--display-name", "Zoë Lefèvre"], in: directory, input: "correct horse battery\n")
        let admin = try await run(["users", "create", "--username", "root", "--role", "admin"], in: directory, input: "another good one\n")
        let duplicate = try await run(["users", "create", "--username", "ZOE", "--role", "reader"], in: directory, input: "correct horse battery\n")
        let short = try await run(["users", "create", "--username", "kim", "--role", "reader"], in: directory, input: "short\n")
        let promoted = try await run(["users", "set-role", "zoe", "admin"], in: directory)
        let deleted = try await run(["users", "delete", "root"], in: directory)
        let lastAdmin = try await run(["users", "delete", "zoe"], in: directory)
        let list = try await run(["users", "list"], in: directory)
        let app = try await run(["apps", "create", "Phone app 3.2"], in: directory)

        #expect(created.status == 0 && created.output.contains("Created editor zoe (id 1)"))
        #expect(admin.status == 0)
        #expect(duplicate.status != 0 && duplicate.output.contains("taken"))
        #expect(short.status != 0 && short.output.contains("at least 8"))
        #expect(promoted.status == 0 && deleted.status == 0)
        #expect(lastAdmin.status != 0 && lastAdmin.output.contains("last admin"))
        #expect(list.output.contains("zoe") && list.output.contains("admin") && !list.output.contains("root"))
        #expect(app.output.firstMatch(of: /app id: app_[0-9a-f]{24}\nsecret: [0-9a-f]{64}/) != nil)
        for result in [created, admin, duplicate, list] {
            #expect(!result.output.contains("correct horse battery"))
        }
    }

    @Test("a bad setting stops it at once with a message naming the setting, and no password is printed", arguments: [
        (["--port", "http"], [String: String](), "--port"),
        ([], ["DATABASE_URL": "mysql://root:hunter2@db/intranet"], "DATABASE_URL"),
        ([], ["DATABASE_URL": "postgres://app:hunter2@127.0.0.1:1/intranet?sslmode=disable"], "postgres://app:***@127.0.0.1:1/intranet"),
        (["--database-pool-size", "0"], [String: String](), "DATABASE_POOL_SIZE must be a whole number of connections from 1 to 256, not '0'"),
        ([], ["DATABASE_POOL_SIZE": "lots"], "DATABASE_POOL_SIZE must be a whole number of connections from 1 to 256, not 'lots'"),
        (["--staleness-bound-ms", "10"], [String: String](), "STALENESS_BOUND_MS must be a whole number of milliseconds from 50 to 60000, not '10'"),
        (["--shutdown-grace-seconds", "forever"], [String: String](), "SHUTDOWN_GRACE_SECONDS must be a number of seconds from 0 to 3600, not 'forever'"),
        (["--access-log", "verbose"], [String: String](), "ACCESS_LOG must be logfmt, json or off, not 'verbose'"),
    ])
    func badSettings(arguments: [String], environment: [String: String], named: String) async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let (status, text) = try await run(arguments, in: directory, environment: environment)

        #expect(status != 0)
        #expect(text.contains(named), "output: \(text)")
        #expect(!text.contains("hunter2"), "output: \(text)")
    }

    // MARK: Import

    @Test("search-index rebuild writes an index that was lost again, in one run, and says how many it indexed; imported posts are found")
    func rebuildSearchIndex() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = WordPressImportTests.fixtures.appendingPathComponent("harbour-2024.xml").path
        let imported = try await run(["import", "wordpress", export], in: directory)
        #expect(imported.status == 0, "\(imported.output)")
        let storage = AppConfiguration.Storage.sqliteFile(path: directory.appendingPathComponent("intranet.sqlite").path)

        func indexed() async throws -> (rows: Int, found: Int) {
            let database = try DatabaseService(storage: storage, logger: Logger(label: "test"))
            defer { Task { await database.close() } }
            let sql = try #require(database.database as? any SQLDatabase)
            struct Count: Decodable { let n: Int }
            let rows = try await sql.raw("SELECT COUNT(*) AS n FROM announcement_search").first(decoding: Count.self)?.n ?? -1
            let found = try await FluentAnnouncementRepository(database: database.database)
                .search(try SearchQuery.parse("harbour"), offset: 0, limit: 50, visibility: .everything).total
            await database.close()
            return (rows, found)
        }
        let before = try await indexed()
        #expect(before.rows > 6 && before.found > 0, "the seeds and the import are indexed as they are written: \(before)")
        do {
            let database = try DatabaseService(storage: storage, logger: Logger(label: "test"))
            try await (database.database as? any SQLDatabase)?.raw("DELETE FROM announcement_search").run()
            await database.close()
        }
        let lost = try await indexed()
        #expect(lost == (0, 0), "lost")

        let rebuilt = try await run(["search-index", "rebuild"], in: directory)
        #expect(rebuilt.status == 0, "\(rebuilt.output)")
        #expect(rebuilt.output.firstMatch(of: /^indexed \d+ announcements in \d+\.\d s$/.anchorsMatchLineEndings()) != nil, "\(rebuilt.output)")
        #expect(rebuilt.output.contains("indexed \(before.rows) announcements"), "\(rebuilt.output)")
        let after = try await indexed()
        #expect(after == before)
    }

    @Test("import wordpress: a dry run, the import, its JSON report, a second run that changes nothing; bad files and a running server are refused")
    func importWordPress() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = WordPressImportTests.fixtures.appendingPathComponent("harbour-2024.xml").path

        let dry = try await run(["import", "wordpress", export, "--dry-run", "--output", "json"], in: directory)
        let real = try await run(["import", "wordpress", export, "--output", "json"], in: directory)
        let again = try await run(["import", "wordpress", export], in: directory)
        let noOwner = try await run(["import", "wordpress", export, "--include-private"], in: directory)
        let notAdmin = try await run(["import", "wordpress", export, "--include-private", "--owner", "nobody"], in: directory)
        let broken = directory.appendingPathComponent("broken.xml")
        try Data("<rss><channel><wp:wxr_version>1.2".utf8).write(to: broken)
        let malformed = try await run(["import", "wordpress", broken.path], in: directory)
        let missing = try await run(["import", "wordpress", directory.appendingPathComponent("none.xml").path], in: directory)

        #expect(dry.status == 0, "\(dry.output)")
        #expect(real.status == 0, "\(real.output)")
        var dryReport = try #require(try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any])
        var realReport = try #require(try JSONSerialization.jsonObject(with: Data(real.output.utf8)) as? [String: Any])
        #expect(dryReport["dryRun"] as? Bool == true)
        #expect(realReport["created"] as? Int == 9)
        dryReport["dryRun"] = nil
        realReport["dryRun"] = nil
        #expect(NSDictionary(dictionary: dryReport).isEqual(to: realReport), "a dry run reports what the import does")
        #expect(again.status == 0)
        #expect(again.output.contains("Imported from https://intranet.harbour-works.example (WXR 1.2)"), "\(again.output)")
        #expect(again.output.contains("created: 0, updated: 0, unchanged: 9, withdrawn: 0"), "\(again.output)")
        #expect(again.output.contains("title shortened") == false, "nothing was converted again")
        #expect(noOwner.status != 0 && noOwner.output.contains("--owner"), "\(noOwner.output)")
        #expect(notAdmin.status != 0 && notAdmin.output.contains("no user is called 'nobody'"), "\(notAdmin.output)")
        #expect(malformed.status != 0, "\(malformed.output)")
        #expect(malformed.output.contains(/line \d+, column \d+/), "\(malformed.output)")
        #expect(missing.status != 0 && missing.output.contains("cannot read"), "\(missing.output)")

        // Beside a running server on the same SQLite file, the import would go unseen by its
        // caches: refused (a dry run still works).
        let (process, port, _) = try await startServer([], in: directory)
        let beside = try await run(["import", "wordpress", export], in: directory)
        let dryBeside = try await run(["import", "wordpress", export, "--dry-run"], in: directory)
        let (_, response) = try await Self.session.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/announcements?per_page=100")))
        process.terminate()
        _ = await Self.waitForExit(process, within: 30)
        #expect(beside.status != 0 && beside.output.contains("a server is serving this database"), "\(beside.output)")
        #expect(dryBeside.status == 0, "\(dryBeside.output)")
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "the server kept serving")
    }
}
