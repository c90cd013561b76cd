import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ChildProcess
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The executable's life: graceful shutdown under load and past its grace period, backups of a
/// live database, and writes that survive a SIGKILL.
extension ServerBinaryTests {
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

    func post(title: String, port: Int, token: String) async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/announcements")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["title": title, "body": "<p>\(title)</p>"])
        let (_, response) = try await Self.session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// Every announcement title a signed-out reader sees, page by page.
    func allTitles(port: Int) async throws -> [String] {
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

    func killMidWrites(directory: URL, environment: [String: String]) async throws {
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
    func startServerWithEditor(
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
    func startServer(
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
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 15
        return URLSession(configuration: configuration)
    }()

    /// Waits for `process` to end; after `seconds` kills it and answers false.
    static func waitForExit(_ process: ChildProcess, within seconds: TimeInterval) async -> Bool {
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

    func signIn(port: Int, username: String, password: String) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/login")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["username": username, "password": password])
        let (data, _) = try await Self.session.data(for: request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["token"] as? String)
    }
}
