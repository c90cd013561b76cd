import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ChildProcess
import Testing

#if canImport(Glibc)
import Glibc
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

    /// Runs the binary to completion with `input` on standard input.
    private func run(
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
    private func launch(_ arguments: [String], in directory: URL, environment: [String: String] = [:], input: Bool = false) throws -> ChildProcess {
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

    // MARK: Graceful shutdown

    @Test("on SIGTERM it stops accepting, answers all 50 requests still arriving, then exits 0")
    func gracefulShutdown() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port, log, token) = try await startServerWithEditor(["--shutdown-grace-seconds", "20"], in: directory)

        // 50 writes whose bodies arrive slowly: half now, the rest after SIGTERM.
        let bodies = (0..<50).map { Data(#"{"title":"Sent across a shutdown \#($0)","body":"<p>still arriving</p>"}"#.utf8) }
        var connections: [RawConnection] = []
        for body in bodies {
            let connection = try RawConnection(port: port)
            let head = "POST /announcements HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            try connection.send(Data(head.utf8) + body.prefix(body.count / 2))
            connections.append(connection)
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(kill(process.processIdentifier, SIGTERM) == 0)
        try await Task.sleep(for: .milliseconds(500))
        #expect(throws: (any Error).self, "a new connection is refused once shutting down") { try RawConnection(port: port) }

        let open = connections
        let answers = await Self.offThePool {
            zip(open, bodies).map { connection, body -> String in
                do {
                    try connection.send(body.suffix(from: body.count / 2))
                    return try connection.readToEnd()
                } catch {
                    return "\(error)"
                }
            }
        }
        let exited = await Self.waitForExit(process, within: 30)
        #expect(exited, "still running 30 s after SIGTERM")
        let answered = answers.filter { $0.hasPrefix("HTTP/1.1 201") }.count
        #expect(answered == 50, "\(answers.filter { !$0.hasPrefix("HTTP/1.1 201") }.prefix(3))")
        let output = log.whole()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("shutting down: no new connections") && output.contains("stopped"), "\(output)")
    }

    @Test("a request still unfinished when the grace period ends does not keep the server from stopping")
    func gracePeriodEnds() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port, log) = try await startServer(["--shutdown-grace-seconds", "1"], in: directory)
        let stuck = try RawConnection(port: port)
        try stuck.send(Data("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{".utf8))
        try await Task.sleep(for: .milliseconds(300))

        let signalled = ContinuousClock.now
        #expect(kill(process.processIdentifier, SIGTERM) == 0)
        let exited = await Self.waitForExit(process, within: 30)
        let took = ContinuousClock.now - signalled
        #expect(exited, "still running 30 s after SIGTERM with a 1 s grace period")
        #expect(took >= .milliseconds(900) && took < .seconds(15), "stopped after \(took)")
        #expect(log.whole().contains("grace period of 1.0 seconds ended with requests still in flight"))
    }

    // MARK: Backups

    @Test("backup copies the live database while it takes writes; put in place, the copy holds every write answered before, as of one moment; bad destinations are refused")
    func backupWhileWriting() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port, _, token) = try await startServerWithEditor([], in: directory)

        var before: [String] = []
        for index in 0..<10 {
            let title = "Before the backup \(index)"
            #expect(try await post(title: title, port: port, token: token) == 201)
            before.append(title)
        }
        // Writes keep coming, one after another, while the backup runs.
        let stop = LockedFlag()
        let writer = Task {
            var answered: [String] = []
            for index in 0..<200 where !stop.isSet {
                let title = "During the backup \(index)"
                guard (try? await post(title: title, port: port, token: token)) == 201 else { break }
                answered.append(title)
            }
            return answered
        }
        try await Task.sleep(for: .milliseconds(200))
        let backup = try await run(["backup", "copy.sqlite"], in: directory)
        try await Task.sleep(for: .milliseconds(200))
        stop.set()  // not cancel(): a cancelled URLSession request on Linux may never return
        let during = await writer.value
        #expect(kill(process.processIdentifier, SIGTERM) == 0)
        #expect(await Self.waitForExit(process, within: 30))
        #expect(backup.status == 0, "\(backup.output)")
        #expect(backup.output.contains("integrity check: ok"), "\(backup.output)")
        #expect(!during.isEmpty)

        // Refused: an existing file (left as it was), PostgreSQL (pg_dump, no password shown).
        let copy = directory.appendingPathComponent("copy.sqlite")
        let copied = try Data(contentsOf: copy)
        let again = try await run(["backup", "copy.sqlite"], in: directory)
        #expect(again.status != 0 && again.output.contains("already exists"), "\(again.output)")
        #expect(try Data(contentsOf: copy) == copied)
        let postgres = try await run(["backup", "pg.dump"], in: directory, environment: ["DATABASE_URL": "postgres://app:hunter2@127.0.0.1:1/intranet"])
        #expect(postgres.status != 0 && postgres.output.contains("pg_dump --format=custom"), "\(postgres.output)")
        #expect(!postgres.output.contains("hunter2"))

        // Restore as docs/operations.md (Backups) says: the old files aside, the copy in place, start.
        let aside = directory.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix("intranet.sqlite") {
            try FileManager.default.moveItem(at: directory.appendingPathComponent(name), to: aside.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(at: copy, to: directory.appendingPathComponent("intranet.sqlite"))
        let (restored, restoredPort, _) = try await startServer([], in: directory)
        let titles = try await allTitles(port: restoredPort)
        restored.terminate()
        _ = await Self.waitForExit(restored, within: 30)

        #expect(before.allSatisfy(titles.contains), "a write answered before the backup is missing")
        let kept = during.filter(titles.contains)
        #expect(kept == Array(during.prefix(kept.count)), "the copy is not one moment: it holds \(kept) of \(during)")
        #expect(titles.contains("Welcome to the new Brightwater intranet"))
    }

    private func post(title: String, port: Int, token: String) async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/announcements")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["title": title, "body": "<p>\(title)</p>"])
        let (_, response) = try await Self.session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// Every announcement title a signed-out reader sees, page by page.
    private func allTitles(port: Int) async throws -> [String] {
        var titles: [String] = []
        for page in 1... {
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/announcements?page=\(page)&per_page=100"))
            let (data, _) = try await Self.session.data(from: url)
            let items = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            titles += items.compactMap { $0["title"] as? String }
            if items.count < 100 { return titles }
        }
        return titles
    }

    // MARK: Durability

    @Test("SIGKILL in the middle of concurrent writes loses none that was answered 201", arguments: TestStorage.all)
    func killedMidWrites(storage: TestStorage) async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try await ScratchDatabase.make(storage, in: directory)
        do {
            try await killMidWrites(directory: directory, environment: ["DATABASE_URL": database.url, "DATABASE_POOL_SIZE": "4"])
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }

    private func killMidWrites(directory: URL, environment: [String: String]) async throws {
        let (process, port, _, token) = try await startServerWithEditor([], in: directory, environment: environment)

        let answered = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var answered: [String] = []
                    for index in 0..<500 {
                        let title = "Writer \(writer), write \(index)"
                        guard (try? await post(title: title, port: port, token: token)) == 201 else { break }
                        answered.append(title)
                    }
                    return answered
                }
            }
            try await Task.sleep(for: .milliseconds(400))
            kill(process.processIdentifier, SIGKILL)
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        _ = await Self.waitForExit(process, within: 30)
        #expect(answered.count > 8, "too few writes before the kill to tell anything")

        let (restarted, restartedPort, _) = try await startServer([], in: directory, environment: environment)
        let titles = Set(try await allTitles(port: restartedPort))
        restarted.terminate()
        _ = await Self.waitForExit(restarted, within: 30)
        let lost = answered.filter { !titles.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(answered.count) writes answered 201 are gone: \(lost.prefix(5))")
    }

    /// Makes an editor (`ed`) with the binary, starts the server, and signs the editor in.
    private func startServerWithEditor(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) async throws -> (ChildProcess, Int, OutputLog, String) {
        let password = "a good long password"
        let created = try await run(
            ["users", "create", "--username", "ed", "--role", "editor"], in: directory, input: password + "\n",
            environment: ["DATABASE_URL": ""].merging(environment) { _, given in given })
        try #require(created.status == 0, "\(created.output)")
        let (process, port, log) = try await startServer(arguments, in: directory, environment: environment)
        return (process, port, log, try await signIn(port: port, username: "ed", password: password))
    }

    /// Starts the server on a free port and waits for its "listening on" line.
    private func startServer(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) async throws -> (ChildProcess, Int, OutputLog) {
        let environment = ["DATABASE_URL": "", "PORT": ""].merging(environment) { _, given in given }
        let process = try launch(["--port", "0"] + arguments, in: directory, environment: environment)
        let log = OutputLog(process.standardOutput)
        let port = await Self.offThePool { () -> Int? in
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning {
                if let match = log.text.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/) { return Int(match.1) }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return nil
        }
        guard let port else {
            process.terminate()
            await Self.offThePool { process.waitUntilExit() }
            throw ServerDidNotStart(log: log.whole())
        }
        return (process, port, log)
    }

    /// Requests of these tests give up after 15 s rather than hang (`URLSession.shared` ignores
    /// a request's own timeout on Linux).
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 15
        return URLSession(configuration: configuration)
    }()

    /// Waits for `process` to end; after `seconds` kills it and answers false.
    private static func waitForExit(_ process: ChildProcess, within seconds: TimeInterval) async -> Bool {
        await offThePool {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            let ended = !process.isRunning
            if !ended { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return ended
        }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        var log: String
        var description: String { "the server did not start: \(log)" }
    }

    private func signIn(port: Int, username: String, password: String) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/login")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["username": username, "password": password])
        let (data, _) = try await Self.session.data(for: request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["token"] as? String)
    }
}

/// Everything a child process writes, collected on a thread of its own.
final class OutputLog: Sendable {
    private let collected = LockedText()
    private let ended = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [collected, ended] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                collected.append(String(decoding: data, as: UTF8.self))
            }
            ended.signal()
        }
    }

    /// What was written so far.
    var text: String { collected.value }

    /// Everything, once the child closed its output (or after 5 s).
    func whole() -> String {
        _ = ended.wait(timeout: .now() + 5)
        ended.signal()
        return collected.value
    }
}

/// A flag one task sets and another reads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A string behind a lock.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""
    func append(_ text: String) { lock.withLock { storage += text } }
    var value: String { lock.withLock { storage } }
}

/// A plain TCP connection to the server on loopback, for requests sent in pieces.
final class RawConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32

    /// Connects, or throws (the server is not accepting).
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "connect: errno \(code)")
        }
    }

    deinit { close(descriptor) }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
                offset += sent
            }
        }
    }

    /// Reads until the server closes the connection (or 15 s pass without a byte).
    func readToEnd() throws -> String {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "recv: errno \(errno) after \(received.count) bytes") }
            received.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: received, as: UTF8.self)
    }
}
