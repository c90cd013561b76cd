import Foundation
import HTTPTypes
import Logging
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("LoggingMiddleware")
struct LoggingMiddlewareTests {
    @Test("logs one line per request and one per response with method, URL, status and duration")
    func oneLineEach() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let transport = MockTransport(script: [.status(.ok)])
        let logging = LoggingMiddleware(logger: logger, baseURL: URL(string: "http://127.0.0.1:8080/"))
        let client = RESTClient(transport: transport.with(logging))

        try await client.perform(RESTRequest(.get, path: "/notes", query: [URLQueryItem(name: "page", value: "2")]))

        let lines = store.entries.map(\.message)
        #expect(lines.count == 2)
        #expect(lines.first == "→ GET http://127.0.0.1:8080/notes?page=2")
        let response = try #require(lines.last)
        #expect(response.hasPrefix("← 200 GET http://127.0.0.1:8080/notes?page=2 "))
        #expect(response.hasSuffix(" ms"))
    }

    @Test("Authorization, cookies, signatures and password parameters are redacted")
    func redaction() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let transport = MockTransport(script: [
            .status(.ok, headerFields: .fields([("Set-Cookie", "session=s3cr3t"), ("ETag", "\"e\"")]))
        ])
        let client = RESTClient(transport: transport.with(LoggingMiddleware(logger: logger)))
        let request = RESTRequest(.post, path: "/login", query: [URLQueryItem(name: "password", value: "hunter2")], headerFields: .fields([
            ("Authorization", "Bearer tok3n"), ("Cookie", "a=b"), ("X-Signature", "abcdef"), ("Accept-Version", "2.0"),
        ]))

        try await client.perform(request)

        let everything = store.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in ["tok3n", "a=b", "abcdef", "hunter2", "s3cr3t"] {
            #expect(!everything.contains(secret), "\(secret) leaked")
        }
        #expect(everything.contains("Accept-Version: 2.0"))
        #expect(everything.contains("password=<redacted>"))
        #expect(everything.contains("ETag: \"e\""))
    }

    @Test("a login's password in the body and the token in the answer never reach the log")
    func loginBodiesNotLogged() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let answer = #"{"token":"tok-9f8e7d","expiresAt":"2026-12-21T09:30:00.000Z","user":{"id":1}}"#
        let transport = MockTransport(script: [.text(answer), .status(.noContent)])
        let client = RESTClient(transport: transport.with(LoggingMiddleware(logger: logger)))
        let login = try client.request(.post, path: "/login", body: ["username": "ada", "password": "pa55-w0rd"])

        try await client.perform(login)
        try await client.perform(RESTRequest(.post, path: "/logout", headerFields: .fields([("Authorization", "Bearer tok-9f8e7d")])))

        let everything = store.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(store.entries.count == 4)
        #expect(everything.contains("POST /login"))
        #expect(!everything.contains("pa55-w0rd"))
        #expect(!everything.contains("tok-9f8e7d"))
        #expect(everything.contains("Authorization: <redacted>"))
    }

    @Test("a transport failure is logged with the method and URL")
    func failureLine() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let transport = MockTransport(script: [.failure(URLError(.timedOut))])
        let client = RESTClient(transport: transport.with(LoggingMiddleware(logger: logger, level: .debug)))

        await #expect(throws: RepositoryError.self) { try await client.perform(RESTRequest(.delete, path: "/notes/1")) }

        let last = try #require(store.entries.last)
        #expect(last.message.hasPrefix("✕ DELETE /notes/1 failed after "))
        #expect(last.level == .debug)
    }

    @Test("a client without the middleware logs nothing")
    func offByDefault() async throws {
        let (_, store) = RecordingLogHandler.logger()
        let transport = MockTransport(script: [.status(.ok)])

        try await RESTClient(transport: transport).perform(RESTRequest(.get, path: "/a"))

        #expect(store.entries.isEmpty)
    }
}
