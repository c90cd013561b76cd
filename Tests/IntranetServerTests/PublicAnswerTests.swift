import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing
@testable import IntranetServer

/// Signed-out reads answered on the event loop (`PublicAnswerHandler`): they must be the very
/// answers the application gives, never stale, never someone else's, and in request order.
///
/// One piece, past 300 lines: every test here runs the real socket path end to end against one
/// rule (an early answer is exactly the application's), and splitting them would split the rule.
@Suite("Public answers on a real socket")
struct PublicAnswerTests {
    /// The headers that belong to one exchange and differ between two identical requests.
    static let perExchange: Set<String> = ["date", "x-request-id"]

    static func comparable(_ response: TestResponse) -> [String] {
        response.headers.filter { !perExchange.contains($0.name.canonicalName) }.map { "\($0.name): \($0.value)" }
    }

    @Test(
        "a repeated signed-out read gets the application's status, headers and body again, with its own request id",
        arguments: [
            ("/announcements", [:]),
            ("/announcements", ["Accept-Version": "1.0"]),
            ("/announcements?max=2&offset=2", [:]),
            ("/announcements?page=2&per_page=4&sort=title&order=desc", ["Accept": "application/json;v=1.0"]),
            ("/announcements/2", [:]),
            ("/announcements/2", ["Accept-Version": "1.0"]),
            ("/announcements/2.json", ["Accept-Version": "2.0"]),
        ] as [(String, [String: String])]
    )
    func repeatedRead(target: String, fields: [String: String]) async throws {
        let headers = HTTPFields(fields.map { HTTPField(name: HTTPField.Name($0.key)!, value: $0.value) })
        try await withTestServer(mode: .live) { server, client in
            let first = try await client.send(.get, target, headers: headers)
            let hitsBefore = server.cache.publicAnswerHits
            let second = try await client.send(.get, target, headers: headers)
            let third = try await client.send(.get, target, headers: headers)

            #expect(first.status == .ok)
            #expect(server.cache.publicAnswerHits == hitsBefore + 2)
            #expect(Self.comparable(second) == Self.comparable(first))
            #expect(second.body == first.body)
            #expect(second.headers[.cacheControl] == "public, no-cache")
            let ids = [first, second, third].compactMap { $0.headers[.requestID] }
            #expect(Set(ids).count == 3)
            // Hummingbird's own ids (the first answer's) drop leading zeros; early answers' do not.
            #expect(ids.dropFirst().allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
            #expect(second.headers[.date].map { $0.hasSuffix(" GMT") && $0.count == 29 } == true)
        }
    }

    @Test("a write is seen by the next signed-out read at once, through the list and the detail")
    func writeIsSeenAtOnce() async throws {
        try await withTestServer(mode: .live) { server, client in
            for _ in 1...2 {
                _ = try await client.send(.get, "/announcements/2")
                _ = try await client.send(.get, "/announcements", version: "1.0")
            }
            let hits = server.cache.publicAnswerHits

            let patched = try await client.send(.patch, "/announcements/2", headers: [.contentType: "application/merge-patch+json"], json: #"{"title":"Moved to Friday"}"#)
            let detail = try await client.send(.get, "/announcements/2")
            let list = try await client.send(.get, "/announcements", version: "1.0")
            let deleted = try await client.send(.delete, "/announcements/2")
            let gone = try await client.send(.get, "/announcements/2")
            let goneAgain = try await client.send(.get, "/announcements/2")

            #expect(hits >= 2)
            #expect(patched.status == .ok)
            #expect(try detail.object()["title"] as? String == "Moved to Friday")
            #expect(try list.objects().first { $0["id"] as? Int == 2 }?["title"] as? String == "Moved to Friday")
            #expect(deleted.status == .noContent)
            #expect(gone.status == .notFound)
            #expect(goneAgain.status == .notFound)
        }
    }

    @Test("a signed-in caller's repeated reads are answered early from their own answers, private, and never given to another caller")
    func signedInAnswersStayPrivate() async throws {
        // Sessions are rechecked after a minute here, so a slow run still answers early.
        try await withTestServer(mode: .live, configure: { $0.sessionRecheckInterval = .seconds(60) }) { server, client in
            let restricted = try await client.send(.post, "/announcements", json: #"{"title":"For the reader","readers":[3]}"#)
            let id = try #require(try restricted.object()["id"] as? Int)
            var asReader: [TestResponse] = []
            for _ in 0..<3 { asReader.append(try await client.send(.get, "/announcements/\(id)", as: .reader)) }
            let hits = server.cache.publicAnswerHits
            let fourth = try await client.send(.get, "/announcements/\(id)", as: .reader)
            let list = try await client.send(.get, "/announcements", as: .reader)
            let listAgain = try await client.send(.get, "/announcements", as: .reader)
            let listOnceMore = try await client.send(.get, "/announcements", as: .reader)
            let hitsAfterReader = server.cache.publicAnswerHits
            var others: [TestResponse] = []
            for caller in [Caller.otherReader, .anonymous, .otherReader, .anonymous, .otherReader] {
                others.append(try await client.send(.get, "/announcements/\(id)", as: caller))
                others.append(try await client.send(.get, "/announcements", as: caller))
            }
            let bogus = try await client.send(.get, "/announcements/\(id)", headers: [.authorization: "Bearer not-a-session"])

            #expect(asReader.allSatisfy { $0.status == .ok })
            #expect(fourth.status == .ok && fourth.body == asReader[0].body)
            #expect(Self.comparable(fourth) == Self.comparable(asReader[0]))
            #expect(fourth.headers[.cacheControl] == "private, no-cache")
            #expect(hitsAfterReader == hits + 3)  // the fourth detail, the second and third list
            #expect(try listOnceMore.objects().contains { $0["id"] as? Int == id })
            #expect(listOnceMore.body == listAgain.body && listAgain.body == list.body)
            for (index, answer) in others.enumerated() where index % 2 == 0 {
                #expect(answer.status == .notFound)
            }
            for (index, answer) in others.enumerated() where index % 2 == 1 {
                #expect(try !answer.objects().contains { $0["id"] as? Int == id })
                #expect(answer.headers[.total] == "6")
            }
            #expect(bogus.status == .unauthorized)
        }
    }

    @Test("a signed-in early answer stops at once at logout, a role change, a password change, a deletion, a write, and the session's expiry")
    func signedInAnswersFollowTheSession() async throws {
        let clock = NIOLockedValueBox(Date())
        try await withTestServer(mode: .live, configure: { configuration in
            configuration.now = { clock.withLockedValue { $0 } }
            configuration.sessionRecheckInterval = .seconds(60)
        }) { server, client in
            // Warm (session remembered, answer kept) and check a read is answered early.
            func warmed(_ caller: Caller, _ target: String = "/announcements/2") async throws -> TestResponse {
                for _ in 0..<2 { _ = try await client.send(.get, target, as: caller) }
                let hits = server.cache.publicAnswerHits
                let answer = try await client.send(.get, target, as: caller)
                #expect(server.cache.publicAnswerHits == hits + 1, "not answered early")
                return answer
            }
            let login = try await client.send(.post, "/login", json: #"{"username":"reader","password":"correct horse battery"}"#, as: .anonymous)
            let token = try #require(try login.object()["token"] as? String)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            for _ in 0..<3 { _ = try await client.send(.get, "/announcements/2", headers: bearer) }
            _ = try await client.send(.post, "/logout", headers: bearer)
            #expect(try await client.send(.get, "/announcements/2", headers: bearer).status == .unauthorized)

            // An editor's detail is the editors' representation (its tag ends in "e").
            let editorView = try await warmed(.editor)
            #expect(editorView.headers[.eTag]?.hasSuffix("e\"") == true)
            _ = try await client.send(.patch, "/users/2", json: #"{"role":"reader"}"#, as: .admin)
            #expect(try await client.send(.get, "/announcements/2", as: .editor).headers[.eTag]?.hasSuffix("e\"") == false)

            _ = try await warmed(.otherReader)
            _ = try await client.send(.patch, "/users/4", json: #"{"password":"a brand new one"}"#, as: .admin)
            #expect(try await client.send(.get, "/announcements/2", as: .otherReader).status == .unauthorized)

            _ = try await warmed(.reader)
            _ = try await client.send(.patch, "/announcements/2", json: #"{"title":"Written meanwhile"}"#, as: .admin)
            #expect(try await client.send(.get, "/announcements/2", as: .reader).object()["title"] as? String == "Written meanwhile")

            _ = try await warmed(.reader)
            _ = try await client.send(.delete, "/users/3", as: .admin)
            #expect(try await client.send(.get, "/announcements/2", as: .reader).status == .unauthorized)

            _ = try await warmed(.admin)
            clock.withLockedValue { $0 += 7200 }  // the test sessions last an hour from their creation
            #expect(try await client.send(.get, "/announcements/2", as: .admin).status == .unauthorized)
        }
    }

    @Test("a change made by another process on the SQLite file (as intranet-server users does) counts within the revision watcher's interval, and no older answer is given after")
    func signedInAnswersAfterOutsideChange() async throws {
        try await withTestServer(mode: .live) { server, client in
            for _ in 0..<3 {
                #expect(try await client.send(.get, "/announcements/2", as: .editor).headers[.eTag]?.hasSuffix("e\"") == true)
            }
            // A pipeline of its own, as another process has: the server hears nothing of it.
            _ = try await FluentAccountRepository(database: server.database.database).updateUser(id: 2, changes: UserChanges(role: .reader))
            try await Task.sleep(for: RevisionWatcher.interval + .milliseconds(500))
            for _ in 0..<4 {
                #expect(try await client.send(.get, "/announcements/2", as: .editor).headers[.eTag]?.hasSuffix("e\"") == false)
            }
        }
    }

    @Test("a repeated revalidation gets the application's 304 again; a stale validator gets the 200")
    func revalidation() async throws {
        try await withTestServer(mode: .live) { server, client in
            let first = try await client.send(.get, "/announcements/2")
            let etag = try #require(first.headers[.eTag])
            let hits = server.cache.publicAnswerHits

            let notModified = try await client.send(.get, "/announcements/2", headers: [.ifNoneMatch: etag])
            let notModifiedAgain = try await client.send(.get, "/announcements/2", headers: [.ifNoneMatch: etag])
            let stale = try await client.send(.get, "/announcements/2", headers: [.ifNoneMatch: "\"2.0.v2\""])
            let staleAgain = try await client.send(.get, "/announcements/2", headers: [.ifNoneMatch: "\"2.0.v2\""])
            _ = try await client.send(.patch, "/announcements/2", headers: [.contentType: "application/merge-patch+json"], json: #"{"title":"Changed"}"#)
            let afterWrite = try await client.send(.get, "/announcements/2", headers: [.ifNoneMatch: etag])

            #expect(notModified.status == .notModified)
            #expect(notModified.headers[.cacheControl] == "public, no-cache")
            #expect(Self.comparable(notModifiedAgain) == Self.comparable(notModified))
            #expect(notModifiedAgain.status == .notModified && notModifiedAgain.body.readableBytes == 0)
            #expect(stale.status == .ok && staleAgain.status == .ok)
            #expect(staleAgain.body == first.body)
            #expect(server.cache.publicAnswerHits == hits + 2)
            #expect(afterWrite.status == .ok)
            #expect(try afterWrite.object()["title"] as? String == "Changed")
        }
    }

    @Test("other conditions, HEAD and failing requests get the application's own answers")
    func otherRequestsGoToTheApplication() async throws {
        try await withTestServer(mode: .live) { server, client in
            let first = try await client.send(.get, "/announcements/2")
            let etag = try #require(first.headers[.eTag])
            let hits = server.cache.publicAnswerHits

            let modifiedSince = try await client.send(.get, "/announcements/2", headers: [.ifModifiedSince: "Sun, 22 Nov 2026 03:42:11 GMT"])
            let head = try await client.send(.head, "/announcements/2")
            let badQuery = try await client.send(.get, "/announcements?max=abc")
            let badQueryAgain = try await client.send(.get, "/announcements?max=abc")
            let badVersion = try await client.send(.get, "/announcements/2", version: "4.0")
            let badVersionAgain = try await client.send(.get, "/announcements/2", version: "4.0")
            let badToken = try await client.send(.get, "/announcements/2", headers: [.authorization: "Bearer nonsense"])

            #expect(modifiedSince.status == .ok)
            #expect(head.status == .ok)
            #expect(head.headers[.eTag] == etag)
            #expect(badQuery.status == .badRequest && badQueryAgain.status == .badRequest)
            #expect(badVersion.status == .notAcceptable && badVersionAgain.status == .notAcceptable)
            #expect(badToken.status == .unauthorized)
            #expect(server.cache.publicAnswerHits == hits)
        }
    }

    @Test("a proxy's plain request id is echoed by an early answer too")
    func proxiedRequestID() async throws {
        try await withTestServer(mode: .live) { server, client in
            _ = try await client.send(.get, "/announcements/2")
            let hits = server.cache.publicAnswerHits
            let proxied = try await client.send(.get, "/announcements/2", headers: [.requestID: "lb-7f3a_22"])
            let unplain = try await client.send(.get, "/announcements/2", headers: [.requestID: "has spaces"])

            #expect(server.cache.publicAnswerHits == hits + 2)
            #expect(proxied.headers[.requestID] == "lb-7f3a_22")
            #expect(unplain.headers[.requestID].map { $0.count == 32 } == true)
        }
    }

    @Test("at debug level an early answer is logged like the application's, under its request id")
    func debugLogLine() async throws {
        let (logger, log) = RecordingLogHandler.logger(level: .debug)
        try await withTestServer(mode: .live, logger: logger) { server, client in
            _ = try await client.send(.get, "/announcements/2?x=1")
            let early = try await client.send(.get, "/announcements/2?x=1")
            let id = try #require(early.headers[.requestID])

            #expect(server.cache.publicAnswerHits == 1)
            #expect(log.all.contains { $0.hasPrefix("debug GET /announcements/2 200 ") && $0.contains("hb.request.id=\(id)") })
            #expect(!log.all.contains { $0.contains("x=1") })
        }
    }

    @Test("pipelined requests are answered in order, whichever of them the application answers")
    func pipelinedRequestsKeepTheirOrder() async throws {
        try await withTestServer(mode: .live) { server, client in
            let port = try #require(client.port)
            _ = try await client.send(.get, "/announcements/2")
            _ = try await client.send(.get, "/announcements/2", version: "1.0")
            let hits = server.cache.publicAnswerHits
            let write = #"{"title":"Pipelined write"}"#

            let answers = try await RawHTTP.exchange(port: port, requests: [
                "GET /announcements/2 HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /announcements/3 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestUser.editor.token)\r\n\r\n",
                "GET /announcements/2 HTTP/1.1\r\nHost: x\r\nAccept-Version: 1.0\r\n\r\n",
                "POST /announcements HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestUser.editor.token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(write.utf8.count)\r\n\r\n\(write)",
                "GET /announcements?max=100 HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /announcements/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            ])

            #expect(answers.map(\.statusLine) == [
                "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 201 Created", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK",
            ])
            #expect(answers.map { $0.header("API-Version") } == ["3.0", "3.0", "1.0", "3.0", "3.0", "3.0"])
            #expect(answers.count == 6)
            guard answers.count == 6 else { return }
            #expect(answers[0].body.contains(#""id":2"#))
            #expect(answers[1].body.contains(#""id":3"#))
            #expect(answers[2].body.contains(#""id":2"#) && !answers[2].body.contains("createdAt"))
            // The list read behind the write sees the write.
            #expect(answers[4].body.contains("Pipelined write"))
            #expect(answers[4].header("X-Total") == "7")
            // Only the first request had nothing before it to wait for.
            #expect(server.cache.publicAnswerHits == hits + 1)
        }
    }

    @Test("answers to pipelined signed-out reads are kept under their own requests")
    func pipelinedAnswersKeptUnderTheirRequests() async throws {
        try await withTestServer(mode: .live) { server, client in
            let port = try #require(client.port)
            let restricted = try await client.send(.post, "/announcements", json: #"{"title":"Reader only","readers":[3]}"#)
            let id = try #require(try restricted.object()["id"] as? Int)

            let piped = try await RawHTTP.exchange(port: port, requests: [
                "GET /announcements/\(id) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestUser.reader.token)\r\n\r\n",
                "GET /announcements/2 HTTP/1.1\r\nHost: x\r\nAccept-Version: 1.0\r\n\r\n",
                "GET /announcements/3 HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /announcements/4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            ])
            let hits = server.cache.publicAnswerHits
            let two = try await client.send(.get, "/announcements/2", version: "1.0")
            let three = try await client.send(.get, "/announcements/3")
            let restrictedSignedOut = try await client.send(.get, "/announcements/\(id)")

            #expect(piped.map(\.statusLine) == Array(repeating: "HTTP/1.1 200 OK", count: 4))
            #expect(piped.count == 4)
            guard piped.count == 4 else { return }
            #expect(piped[0].body.contains("Reader only"))
            #expect(server.cache.publicAnswerHits == hits + 2)
            #expect(two.text == piped[1].body)
            #expect(three.text == piped[2].body)
            #expect(try two.object()["id"] as? Int == 2)
            #expect(try three.object()["id"] as? Int == 3)
            #expect(restrictedSignedOut.status == .notFound)
        }
    }

    @Test("with signing required, a signed read is never kept for an unsigned one")
    func signingRequired() async throws {
        try await withTestServer(mode: .live, configure: { $0.requiresSignature = true }) { server, client in
            let app = try await SigningAppRegistry(database: server.database.database).register(name: "Kiosk")
            let first = try await client.send(.get, "/announcements/2", headers: signed(app, "GET", "/announcements/2"))
            let second = try await client.send(.get, "/announcements/2", headers: signed(app, "GET", "/announcements/2", at: Date(timeIntervalSinceNow: -1)))
            let unsigned = try await client.send(.get, "/announcements/2")

            #expect(first.status == .ok && second.status == .ok)
            #expect(unsigned.status == .unauthorized)
            #expect(server.cache.publicAnswerHits == 0)
        }
    }
}
