import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// Acknowledgements answered on the event loop (`AcknowledgementAnswerHandler`): the same
/// answer as the application's, recorded alike, in request order, and only when given.
@Suite("Acknowledgements: answered on the event loop")
struct AcknowledgementEarlyAnswerTests {
    typealias Lines = AccessLogTests.Lines

    /// Runs `test` against a live server whose access log (JSON) is written to the lines given.
    static func withLoggedServer(
        _ storage: TestStorage = .sqlite, _ test: @Sendable (IntranetServer, any TestClientProtocol, Lines) async throws -> Void
    ) async throws {
        let lines = Lines()
        try await withTestServer(storage, mode: .live, configure: {
            $0.accessLog = .json
            $0.accessLogOutput = { lines.append($0) }
            $0.sessionRecheckInterval = .seconds(60)  // however slow the machine, no recheck in between
        }) { server, client in
            try await test(server, client, lines)
        }
    }

    /// An acknowledgement as sent on the wire.
    static func put(_ id: Int, token: String, _ extra: String = "") -> String {
        "PUT /announcements/\(id)/acknowledgement HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\(extra)\r\n"
    }

    /// The headers of an answer that must agree between the two paths (all but the ones each
    /// request gets anew).
    static func comparable(_ response: TestResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for field in response.headers where ![.date, .requestID].contains(field.name) {
            fields[field.name.canonicalName, default: ""] += field.value
        }
        return fields
    }

    /// The names of an answer's headers in the order sent, less the ones each request gets anew.
    static func order(_ response: TestResponse) -> [String] {
        response.headers.map(\.name.canonicalName).filter { !["date", "x-request-id"].contains($0) }
    }

    @Test("an acknowledgement answered early is the application's answer but for Date and X-Request-Id, in JSON, Spearal and each version, and the access log says which path answered", arguments: TestStorage.all)
    func sameAnswer(storage: TestStorage) async throws {
        try await Self.withLoggedServer(storage) { server, client, lines in
            let variants: [HTTPFields] = [
                [:], [.accept: "application/spearal"], [.acceptVersion: "1.0"], [.accept: "application/json; v=2.0"],
            ]
            for (index, variant) in variants.enumerated() {
                let id = try await client.createAnnouncement(AcknowledgementTests.asking)
                let path = "/announcements/\(id)/acknowledgement"
                // A cookie the API does not read sends the request to the application; the
                // other reader's first goes early, and each repeats the other's way.
                var toApplication = variant
                toApplication[.cookie] = "theme=dark"
                let start = lines.all.count
                let byApplication = try await client.send(.put, path, headers: toApplication, as: .reader)
                let early = try await client.send(.put, path, headers: variant, as: .reader)
                let otherEarly = try await client.send(.put, path, headers: variant, as: .otherReader)
                let otherByApplication = try await client.send(.put, path, headers: toApplication, as: .otherReader)
                for response in [byApplication, early, otherEarly, otherByApplication] {
                    #expect(response.status == .ok, "\(variant): \(response.text)")
                }
                #expect(early.body == byApplication.body, "\(variant)")
                #expect(otherEarly.body == otherByApplication.body, "\(variant)")
                #expect(early.body != otherEarly.body, "two readers, two times")
                #expect(Self.comparable(early) == Self.comparable(byApplication), "\(variant)")
                #expect(Self.order(early) == Self.order(byApplication), "\(variant)")
                #expect(Self.comparable(otherEarly) == Self.comparable(otherByApplication), "\(variant)")
                #expect(early.headers[.apiVersion] == ["3.0", "3.0", "1.0", "2.0"][index])
                let entries = try lines.objects().dropFirst(start)
                #expect(entries.map { $0["early"] as? Bool } == [false, true, true, false], "\(lines.all)")
                #expect(entries.map { $0["userId"] as? Int } == [TestUser.reader.id, TestUser.reader.id, TestUser.otherReader.id, TestUser.otherReader.id])
                #expect(entries.map { $0["requestId"] as? String } == [byApplication, early, otherEarly, otherByApplication].map { $0.headers[.requestID] })
            }
            #expect(try await AcknowledgementTests.rows(server) == 2 * variants.count)
        }
    }

    @Test("what is not given is the application's to answer: an unknown or ended session 401, a hidden or missing announcement 404, another round, none asked or not addressed to an editor 409; nothing is written", arguments: TestStorage.all)
    func refusalsGoToTheApplication(storage: TestStorage) async throws {
        try await Self.withLoggedServer(storage) { server, client, lines in
            let asking = try await client.createAnnouncement(AcknowledgementTests.asking)
            let hidden = try await client.createAnnouncement(
                #"{"title":"Board only","readers":[\#(TestUser.otherReader.id)],"acknowledgement":{"required":true}}"#)
            let plain = try await client.createAnnouncement(#"{"title":"Nothing to confirm"}"#)
            let start = lines.all.count
            let unknown = try await client.send(
                .put, "/announcements/\(asking)/acknowledgement", headers: [.authorization: "Bearer not-a-token"], as: .anonymous)
            #expect(unknown.status == .unauthorized)
            #expect(unknown.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
            #expect(try await client.send(.put, "/announcements/\(hidden)/acknowledgement", as: .reader).status == .notFound)
            #expect(try await client.send(.put, "/announcements/99999/acknowledgement", as: .reader).status == .notFound)
            let otherRound = try await client.send(.put, "/announcements/\(asking)/acknowledgement?round=2", as: .reader)
            #expect(otherRound.status == .conflict)
            #expect(otherRound.text.contains("round 1"), "\(otherRound.text)")
            #expect(try await client.send(.put, "/announcements/\(plain)/acknowledgement", as: .reader).status == .conflict)
            #expect(try await AcknowledgementTests.rows(server) == 0)
            #expect(try lines.objects().dropFirst(start).map { $0["early"] as? Bool } == Array(repeating: false, count: 5))
            let confirmed = try await client.send(.put, "/announcements/\(asking)/acknowledgement?round=1", as: .reader)
            #expect(confirmed.status == .ok)
            #expect(try lines.objects().last?["early"] as? Bool == true, "\(lines.all.suffix(2))")
            #expect(try await AcknowledgementTests.rows(server) == 1)

            // An editor acknowledges what is addressed to them, early; a post restricted to
            // others is the application's 409, though they may read it.
            #expect(try await client.send(.put, "/announcements/\(asking)/acknowledgement", as: .editor).status == .ok)
            #expect(try lines.objects().last?["early"] as? Bool == true)
            let notAddressed = try await client.send(.put, "/announcements/\(hidden)/acknowledgement", as: .editor)
            #expect(notAddressed.status == .conflict)
            #expect(notAddressed.text.contains("not addressed to you"), "\(notAddressed.text)")
            #expect(try lines.objects().last?["early"] as? Bool == false)

            // A session remembered, then ended: the application's 401.
            #expect(try await client.send(.post, "/logout", as: .reader).status == .noContent)
            let ended = try await client.send(.put, "/announcements/\(asking)/acknowledgement", as: .reader)
            #expect(ended.status == .unauthorized)
            #expect(try lines.objects().last?["early"] as? Bool == false)
            #expect(try await AcknowledgementTests.rows(server) == 2)
        }
    }

    @Test("requests pipelined behind an acknowledgement answered early wait for it and are answered in order, the application's and the early ones alike")
    func pipelined() async throws {
        try await Self.withLoggedServer(.sqlite) { server, client, lines in
            let port = try #require(client.port)
            let first = try await client.createAnnouncement(AcknowledgementTests.asking)
            let second = try await client.createAnnouncement(AcknowledgementTests.asking)
            func put(_ id: Int, _ user: TestUser, close: Bool = false) -> String {
                Self.put(id, token: user.token, close ? "Connection: close\r\n" : "")
            }
            let read = "GET /announcements/\(first) HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nAuthorization: Bearer \(TestUser.reader.token)\r\n\r\n"
            let start = lines.all.count
            let answers = try await RawHTTP.exchange(port: port, requests: [
                put(first, .reader), read, put(second, .reader), put(first, .otherReader), put(99999, .reader), put(second, .otherReader, close: true),
            ])
            #expect(answers.map(\.statusLine) == [
                "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK",
            ])
            try #require(answers.count == 6)
            let receipt = try #require(try JSONSerialization.jsonObject(with: Data(answers[0].bodyBytes)) as? [String: Any])
            let detail = try #require(try JSONSerialization.jsonObject(with: Data(answers[1].bodyBytes)) as? [String: Any])
            let shown = try #require(detail["acknowledgement"] as? [String: Any])
            #expect(shown["acknowledgedAt"] as? String == receipt["acknowledgedAt"] as? String, "the read after it sees it given")
            for index in [2, 3, 5] { #expect(answers[index].body.contains("\"round\":1"), "\(answers[index].body)") }
            #expect(try await AcknowledgementTests.rows(server) == 4)
            // The first is answered early; the read goes to the application, and the requests
            // read with it follow it there (none may overtake its answer).
            #expect(try lines.objects().dropFirst(start).map { $0["early"] as? Bool } == [true, false, false, false, false, false], "\(lines.all.dropFirst(start))")
        }
    }

    @Test("a client that shuts its sending side after an acknowledgement still gets the answer; a malformed request behind one is answered after it; a chunked body is dropped when answered early and reaches the application otherwise")
    func endsOfInput() async throws {
        try await Self.withLoggedServer(.sqlite) { server, client, lines in
            let port = try #require(client.port)
            let id = try await client.createAnnouncement(AcknowledgementTests.asking)
            let halfClosed = try await RawHTTP.exchange(
                port: port,
                requests: [Self.put(id, token: TestUser.reader.token)],
                closingOutput: true)
            #expect(halfClosed.map(\.statusLine) == ["HTTP/1.1 200 OK"])
            #expect(try lines.objects().last?["early"] as? Bool == true)

            // A malformed request behind one in flight is answered after it, not before.
            let malformed = try await RawHTTP.exchange(port: port, requests: [Self.put(id, token: TestUser.editor.token), "BOGUS\r\n\r\n"])
            #expect(malformed.map(\.statusLine) == ["HTTP/1.1 200 OK", "HTTP/1.1 400 Bad Request"])
            #expect(malformed.first?.body.contains("\"round\":1") == true)

            func chunked(_ token: String, close: Bool = false) -> String {
                Self.put(id, token: token, "Transfer-Encoding: chunked\r\n" + (close ? "Connection: close\r\n" : "")) + "5\r\nhello\r\n0\r\n\r\n"
            }
            let start = lines.all.count
            let answers = try await RawHTTP.exchange(port: port, requests: [
                chunked(TestUser.otherReader.token), chunked("not-a-token"), chunked(TestUser.otherReader.token, close: true),
            ])
            #expect(answers.map(\.statusLine) == ["HTTP/1.1 200 OK", "HTTP/1.1 401 Unauthorized", "HTTP/1.1 200 OK"])
            #expect(answers.first?.body == answers.last?.body, "the repeat names the first time")
            #expect(try lines.objects().dropFirst(start).map { $0["early"] as? Bool } == [true, false, false])
            #expect(try await AcknowledgementTests.rows(server) == 3)
        }
    }

    @Test("a time read back from the database, a hair off in binary, is the millisecond written")
    func timesReadBack() {
        let written = FluentAnnouncementRepository.millisecondPrecision(Date(timeIntervalSince1970: 1_764_288_000.123_456))
        for offset in [-0.000_000_4, 0, 0.000_000_4] {
            let read = Date(timeIntervalSince1970: written.timeIntervalSince1970 + offset)
            #expect(FluentAnnouncementRepository.storedMillisecond(read) == written)
        }
    }

    @Test("only a plain acknowledgement is taken from the socket: a PUT of one announcement's acknowledgement with one bearer token, no a body's length, cookie or condition, at most a valid round, and a version the API serves")
    func whatIsTaken() throws {
        func taken(_ target: String, method: HTTPRequest.Method = .put, _ fields: HTTPFields = [.authorization: "Bearer abc"]) -> Bool {
            AcknowledgementAnswerHandler.early(HTTPRequest(method: method, scheme: nil, authority: "x", path: target, headerFields: fields)) != nil
        }
        #expect(taken("/announcements/12/acknowledgement"))
        #expect(taken("/announcements/12/acknowledgement?round=3"))
        #expect(taken("/announcements/12/acknowledgement", [.authorization: "Bearer abc", .contentLength: "0", .accept: "application/spearal"]))
        let parsed = try #require(AcknowledgementAnswerHandler.early(HTTPRequest(
            method: .put, scheme: nil, authority: "x", path: "/announcements/12/acknowledgement?round=3",
            headerFields: [.authorization: "Bearer abc", .acceptVersion: "2.0"])))
        #expect(parsed.0.announcementID == 12 && parsed.0.round == 3 && parsed.0.tokenHash == SessionToken.hash("abc"))
        #expect(parsed.1 == .v2_0 && parsed.2 == .json)

        #expect(!taken("/announcements/12/acknowledgement", method: .post))
        #expect(!taken("/announcements/12/acknowledgement", method: .get))
        #expect(!taken("/announcements/12/reach"))
        #expect(!taken("/announcements//acknowledgement"))
        #expect(!taken("/announcements/0/acknowledgement"))
        #expect(!taken("/announcements/x1/acknowledgement"))
        #expect(!taken("/announcements/1/2/acknowledgement"))
        #expect(!taken("/announcements/12/acknowledgement/"))
        #expect(!taken("/announcements/12/acknowledgement?round=0"))
        #expect(!taken("/announcements/12/acknowledgement?round=1&round=2"))
        #expect(!taken("/announcements/12/acknowledgement", [:]))
        #expect(!taken("/announcements/12/acknowledgement", [.authorization: "Basic abc"]))
        #expect(!taken("/announcements/12/acknowledgement", [.authorization: "Bearer abc", .cookie: "intranet_session=abc"]))
        #expect(!taken("/announcements/12/acknowledgement", [.authorization: "Bearer abc", .contentLength: "2"]))
        // The empty chunked body clients built on SwiftNIO send with a PUT is dropped.
        #expect(taken("/announcements/12/acknowledgement", [.authorization: "Bearer abc", .transferEncoding: "chunked"]))
        #expect(!taken("/announcements/12/acknowledgement", [.authorization: "Bearer abc", .acceptVersion: "9.9"]))
        #expect(!taken("/announcements/12/acknowledgement", [.authorization: "Bearer abc", .accept: "text/html"]))
        var twice: HTTPFields = [.authorization: "Bearer abc"]
        twice.append(HTTPField(name: .authorization, value: "Bearer def"))
        #expect(!taken("/announcements/12/acknowledgement", twice))
    }
}
