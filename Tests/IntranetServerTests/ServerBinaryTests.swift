import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ChildProcess
import Testing

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

    private func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-binary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs blocking `work` on a Dispatch thread, never on the cooperative pool.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    /// One child of these tests at a time, from launch to exit: Foundation on Linux has crashed
    /// (SIGSEGV) when these tests' children started and ended at the same moments, and the
    /// parameterized cases below run concurrently even in a serialized suite.
    private static let oneChildAtATime = NSLock()

    /// Runs the binary to completion with `input` on standard input.
    private func run(
        _ arguments: [String], in directory: URL, input: String = "", environment: [String: String] = ["DATABASE_URL": ""]
    ) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                Self.oneChildAtATime.lock()
                defer { Self.oneChildAtATime.unlock() }
                do {
                    let stdin = Pipe()
                    let (process, output) = try launch(arguments, in: directory, environment: environment, stdin: stdin)
                    stdin.fileHandleForWriting.write(Data(input.utf8))
                    try stdin.fileHandleForWriting.close()
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, text))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private func launch(_ arguments: [String], in directory: URL, environment: [String: String] = [:], stdin: Pipe? = nil) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        if let stdin { process.standardInput = stdin }
        try ChildProcess.start(process)
        return (process, output)
    }

    @Test("with no database flag it creates intranet.sqlite in the working directory, logs where it listens, answers, and stops on SIGTERM")
    func servesFromWorkingDirectory() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, output) = try launch(["--port", "0"], in: directory, environment: ["DATABASE_URL": "", "PORT": ""])

        let (log, port) = await Self.offThePool {
            var log = ""
            var port: Int?
            let deadline = Date().addingTimeInterval(30)
            while port == nil, Date() < deadline, process.isRunning {
                log += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                if let match = log.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/) { port = Int(match.1) }
            }
            return (log, port)
        }
        let listening = try #require(port, "no 'listening on' line in: \(log)")
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(listening)/announcements")))
        process.terminate()
        await Self.offThePool { process.waitUntilExit() }

        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try JSONSerialization.jsonObject(with: data) as? [Any] != nil)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("intranet.sqlite").path))
        #expect(process.terminationStatus == 0)
        #expect(log.contains("intranet-server users create --username admin --role admin"))
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
    ])
    func badSettings(arguments: [String], environment: [String: String], named: String) async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let (status, text) = try await run(arguments, in: directory, environment: environment)

        #expect(status != 0)
        #expect(text.contains(named), "output: \(text)")
        #expect(!text.contains("hunter2"), "output: \(text)")
    }
}
