import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// The access log: one line per request, early answers included, with no secret in it.
@Suite("Access log")
struct AccessLogTests {
    /// Lines written by a test server.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }

        /// Each line parsed as a JSON object.
        func objects() throws -> [[String: Any]] {
            try all.map { line in
                #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" }, "one line each: \(line)")
                return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }
    }

    @Test("every request gets one JSON line: id, method, path, status, bytes, duration, user; early answers say so")
    func jsonLines() async throws {
        let lines = Lines()
        try await withTestServer(mode: .live, configure: {
            $0.accessLog = .json
            $0.accessLogOutput = { lines.append($0) }
            $0.sessionRecheckInterval = .seconds(60)  // however slow the machine, no recheck in between
        }) { _, client in
            var answers: [TestResponse] = []
            answers.append(try await client.send(.get, "/announcements/2", as: .anonymous))
            answers.append(try await client.send(.get, "/announcements/2", as: .anonymous))
            // Signed in: the first read finds the session, the second is kept, the third early.
            for _ in 0..<3 {
                answers.append(try await client.send(.get, "/announcements?max=3", as: .reader))
            }
            answers.append(try await client.send(.post, "/announcements", json: #"{"title":"Logged"}"#, as: .editor))
            answers.append(try await client.send(.get, "/nowhere?token=hunter2&page=1", as: .anonymous))

            let entries = try lines.objects()
            try #require(entries.count == answers.count, "\(lines.all)")
            for (entry, answer) in zip(entries, answers) {
                #expect(entry["requestId"] as? String == answer.headers[.requestID])
                #expect(entry["status"] as? Int == Int(answer.status.code))
                #expect(entry["bytes"] as? Int == answer.body.readableBytes)
                #expect((entry["durationMs"] as? Double).map { $0 >= 0 } == true)
                #expect((entry["time"] as? String)?.firstMatch(of: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) != nil, "\(entry)")
            }
            #expect(entries.map { $0["method"] as? String } == ["GET", "GET", "GET", "GET", "GET", "POST", "GET"])
            #expect(entries.map { $0["path"] as? String } == [
                "/announcements/2", "/announcements/2", "/announcements?max=3", "/announcements?max=3", "/announcements?max=3", "/announcements",
                "/nowhere?token=***&page=1",
            ])
            #expect(entries.map { $0["early"] as? Bool } == [false, true, false, false, true, false, false])
            let reader = TestUser.reader.id
            #expect(entries.map { $0["userId"] as? Int } == [nil, nil, reader, reader, reader, TestUser.editor.id, nil])
            let text = lines.all.joined()
            #expect(!text.contains("hunter2") && !text.contains(TestUser.reader.token) && !text.contains(TestUser.editor.token))
        }
    }

    @Test("logfmt lines quote what needs quoting, so a request cannot forge a field or a line")
    func logfmt() {
        let log = AccessLog(format: .logfmt, output: { _ in })
        let line = log.line(for: AccessLog.Entry(
            time: Date(timeIntervalSince1970: 1_795_459_308.25), requestID: "abc", method: "GET",
            target: #"/a?q="x status=500"&password=pw"#, status: 200, bytes: 12, duration: .microseconds(1234), userID: 7, early: true))
        #expect(line == #"time=2026-11-23T18:41:48.250Z request_id=abc method=GET path="/a?q=\"x status=500\"&password=***" status=200 bytes=12 duration_ms=1.234 user_id=7 early=true"# + "\n")
        #expect(AccessLog.logfmtValue("a\nb") == #""ab""#)
        #expect(AccessLog.redacted("/x?Token=1&tokens=2&key") == "/x?Token=***&tokens=2&key")
        // A name the server decodes to a secret's is one too (a feed token sent as `%74oken`).
        #expect(AccessLog.redacted("/feed.atom?%74oken=secret&q=a") == "/feed.atom?%74oken=***&q=a")
    }

    @Test("ACCESS_LOG chooses logfmt (the default), json or off; anything else is refused naming the setting")
    func setting() throws {
        #expect(try AppConfiguration.fromEnvironment([:]).accessLog == .logfmt)
        #expect(try AppConfiguration.fromEnvironment(["ACCESS_LOG": "json"]).accessLog == .json)
        #expect(try AppConfiguration.fromEnvironment(["ACCESS_LOG": "OFF"]).accessLog == nil)
        let error = #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["ACCESS_LOG": "verbose"]) }
        #expect(error?.variable == "ACCESS_LOG")
    }

    @Test("with the access log off, nothing is written")
    func off() async throws {
        let lines = Lines()
        try await withTestServer(mode: .live, configure: {
            $0.accessLog = nil
            $0.accessLogOutput = { lines.append($0) }
        }) { _, client in
            _ = try await client.send(.get, "/announcements/2")
            _ = try await client.send(.get, "/announcements/2")
        }
        #expect(lines.all.isEmpty)
    }
}
