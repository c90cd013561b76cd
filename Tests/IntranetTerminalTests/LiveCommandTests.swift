import ChildProcess
import Dispatch
import Foundation
import IntranetAPI
import IntranetClient
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `intranet announcements --follow` and `intranet events`, the built binary against a live
/// server, stopped with Ctrl-C (SIGINT) as a person would.
@Suite("Live changes in the terminal")
struct LiveCommandTests {
    @Test("announcements --follow prints the list, then a line for each change with the title, until interrupted")
    func follow() async throws {
        try await withLiveAccountServer { live in
            let editor = IntranetClient(baseURL: live.url, apiVersion: .v3_0)
            _ = try await editor.session.login(username: LiveEditor.username, password: LiveEditor.password)
            let running = try RunningBinary(["announcements", "--follow", "--server", live.url.absoluteString])
            try await running.waitForError(containing: "Following changes")
            try await Task.sleep(for: .milliseconds(300))
            let posted = try await editor.announcements.create(AnnouncementDraft(title: "Office closed today"))
            try await running.waitForOutput(containing: "Office closed today")
            _ = try await editor.announcements.patchUnconditionally(AnnouncementPatch(title: "Office closed until Monday"), id: posted.id)
            try await running.waitForOutput(containing: "Office closed until Monday")
            try await editor.announcements.deleteUnconditionally(id: posted.id)
            try await running.waitForOutput(containing: "removed  #\(posted.id)")
            let result = running.interrupt()

            let lines = result.output.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("Page 1 of 1 · 6 announcements") }, "the list first: \(result.output)")
            let changes = lines.filter { $0.range(of: #"^\d\d:\d\d:\d\d  "#, options: .regularExpression) != nil }
            #expect(changes.map { String($0.dropFirst(10)) } == [
                "new      #\(posted.id)  Office closed today",
                "changed  #\(posted.id)  Office closed until Monday",
                "removed  #\(posted.id)  Office closed until Monday",
            ], "\(result.output)")
        }
    }

    @Test("events --output json prints one JSON object per change for scripts, and resumes after --last-event-id")
    func eventsAsJSON() async throws {
        try await withLiveAccountServer { live in
            let editor = IntranetClient(baseURL: live.url, apiVersion: .v3_0)
            _ = try await editor.session.login(username: LiveEditor.username, password: LiveEditor.password)
            let server = live.url.absoluteString
            let running = try RunningBinary(["events", "--output", "json", "--server", server])
            try await Task.sleep(for: .seconds(1))
            let first = try await editor.announcements.create(AnnouncementDraft(title: "First"))
            try await running.waitForOutput(containing: "\"id\":\(first.id)")
            let result = running.interrupt()
            let line = try #require(result.output.split(separator: "\n").first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["event"] as? String == "announcement.created")
            #expect(object["id"] as? Int == first.id)
            #expect(object["etag"] as? String == "\"\(first.id).1.v2\"")
            let eventID = try #require(object["eventId"] as? String)

            // Changes made while no one listened come first when resuming.
            let second = try await editor.announcements.create(AnnouncementDraft(title: "Second"))
            let resumed = try RunningBinary(["events", "--output", "json", "--server", server, "--last-event-id", eventID])
            try await resumed.waitForOutput(containing: "\"id\":\(second.id)")
            let again = resumed.interrupt()
            #expect(!again.output.contains("\"id\":\(first.id),"), "nothing twice: \(again.output)")

            let spearal = try await BuiltBinary.run(["events", "--output", "spearal", "--server", server])
            #expect(spearal.status != 0)
            #expect(spearal.errors.contains("--output table or json"), "\(spearal.errors)")
        }
    }
}

/// The `intranet` binary running until interrupted, its output collected as it comes.
private final class RunningBinary: Sendable {
    private let child: ChildProcess
    /// Text as it arrives on one of the child's pipes.
    private final class Sink: Sendable {
        private let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var value: String { text.withLock { $0 } }
    }

    private let output = Sink()
    private let errors = Sink()
    private let readers = DispatchGroup()

    init(_ arguments: [String]) throws {
        var variables = ProcessInfo.processInfo.environment
        variables["INTRANET_SERVER"] = nil
        variables["COLUMNS"] = "80"
        variables["TZ"] = "UTC"
        variables["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-cache-\(UUID().uuidString)").path
        child = try ChildProcess(executable: try BuiltBinary.url(), arguments: arguments, environment: variables, input: true, separateErrors: true)
        try child.standardInput?.close()
        for (handle, sink) in [(child.standardOutput, output), (child.standardError, errors)] {
            guard let handle else { continue }
            DispatchQueue.global().async(group: readers) {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    sink.append(data)
                }
            }
        }
    }

    func waitForOutput(containing text: String) async throws {
        try await wait(for: text, in: output, what: "output")
    }

    func waitForError(containing text: String) async throws {
        try await wait(for: text, in: errors, what: "standard error")
    }

    private func wait(for text: String, in sink: Sink, what: String) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while !sink.value.contains(text) {
            guard ContinuousClock.now < deadline, child.isRunning else {
                let seen = sink.value
                _ = interrupt()
                throw Missing(description: "no “\(text)” in the \(what): \(seen) / errors: \(errors.value)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends SIGINT, waits for the end, and answers what it printed.
    func interrupt() -> (output: String, errors: String) {
        kill(child.processIdentifier, SIGINT)
        child.waitUntilExit()
        readers.wait()
        return (output.value, errors.value)
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }
}
