import Foundation
import HTTPTypes
import RESTRepository
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionTransport", .serialized)
struct URLSessionTransportTests {
    private static func transport(_ base: String, timeout: TimeInterval = 30) throws -> URLSessionTransport {
        URLSessionTransport(configuration: .init(
            baseURL: try #require(URL(string: base)),
            defaultHeaderFields: .fields([("Accept", "application/json"), ("X-Client", "sdk")]),
            timeout: timeout,
            cachePolicy: .reloadIgnoringLocalCacheData))
    }

    @Test("the URL keeps the base URL's path and carries the encoded query")
    func urlKeepsBasePath() throws {
        let transport = try Self.transport("http://127.0.0.1:8080/api/")
        let request = RESTRequest(.get, path: "/notes", query: [
            URLQueryItem(name: "q", value: "a b&c+d"), URLQueryItem(name: "page", value: "2"),
        ])

        let urlRequest = try transport.makeURLRequest(request.httpRequest, body: nil)

        #expect(urlRequest.url?.absoluteString == "http://127.0.0.1:8080/api/notes?q=a%20b%26c%2Bd&page=2")
        #expect(urlRequest.timeoutInterval == 30)
        #expect(urlRequest.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test("a GET never carries a body, a PUT does")
    func getHasNoBody() throws {
        let transport = try Self.transport("http://127.0.0.1:8080")
        let body = Data("{}".utf8)

        let get = try transport.makeURLRequest(RESTRequest(.get, path: "/a").httpRequest, body: body)
        let put = try transport.makeURLRequest(RESTRequest(.put, path: "/a").httpRequest, body: body)

        #expect(get.httpBody == nil)
        #expect(put.httpBody == body)
        #expect(put.httpMethod == "PUT")
    }

    @Test("default headers are sent unless the request carries its own")
    func defaultHeaders() throws {
        let transport = try Self.transport("http://127.0.0.1:8080")
        let request = RESTRequest(.get, path: "/a", headerFields: .fields([("Accept", "text/plain")]))

        let urlRequest = try transport.makeURLRequest(request.httpRequest, body: nil)

        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(urlRequest.value(forHTTPHeaderField: "X-Client") == "sdk")
    }

    @Test("a real loopback exchange sends method, path, query, headers and body and reads the answer")
    func loopbackExchange() async throws {
        let server = try LoopbackServer(response: LoopbackServer.answer(
            "201 Created",
            headers: ["Content-Type: application/json", "X-Total: 3", "ETag: \"e1\""],
            body: #"{"id":1,"text":"posted"}"#))
        defer { server.stop() }
        let transport = try Self.transport(server.baseURL.absoluteString + "/api")
        let client = RESTClient(transport: transport)
        let request = try client.request(.post, path: "/notes", query: [URLQueryItem(name: "x", value: "1")], body: NoteDraft(text: "posted"))

        let response = try await client.send(request)

        #expect(response.head.status == .created)
        #expect(response.etag == "\"e1\"")
        #expect(response.headerFields[.xTotal] == "3")
        #expect(try response.decode(Note.self, using: JSONBodyCoder()) == Note(id: 1, text: "posted"))
        let received = try #require(server.receivedRequests.first)
        #expect(received.hasPrefix("POST /api/notes?x=1 HTTP/1.1\r\n"))
        #expect(received.lowercased().contains("x-client: sdk"))
        #expect(received.lowercased().contains("content-type: application/json"))
        #expect(received.hasSuffix(#"{"text":"posted"}"#))
    }

    @Test("a 404 from a real server is an answer, mapped to notFound")
    func loopbackNotFound() async throws {
        let server = try LoopbackServer(response: LoopbackServer.answer(
            "404 Not Found",
            headers: ["Content-Type: application/problem+json"],
            body: #"{"title":"Not Found","status":404}"#))
        defer { server.stop() }
        let client = RESTClient(transport: try Self.transport(server.baseURL.absoluteString))

        let error = await #expect(throws: RepositoryError.self) {
            try await client.perform(RESTRequest(.get, path: "/notes/99"))
        }

        guard case .notFound(let details) = try #require(error) else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
        #expect(details.problem?.title == "Not Found")
    }

    @Test("cancelling the calling task cancels the request at once")
    func cancellation() async throws {
        let server = try LoopbackServer(response: nil)
        defer { server.stop() }
        let client = RESTClient(transport: try Self.transport(server.baseURL.absoluteString, timeout: 20))
        let started = ContinuousClock.now

        let task = Task { try await client.perform(RESTRequest(.get, path: "/slow")) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let result = await task.result

        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(throws: RepositoryError.self) { try result.get() }
        if case .failure(RepositoryError.cancelled) = result {} else {
            Issue.record("expected cancelled, got \(result)")
        }
        #expect(server.receivedRequests.count == 1)
    }

    @Test("a refused connection is a transport error")
    func connectionRefused() async throws {
        let server = try LoopbackServer(response: nil)
        let url = server.baseURL
        server.stop()
        let client = RESTClient(transport: try Self.transport(url.absoluteString, timeout: 10))

        let error = await #expect(throws: RepositoryError.self) {
            try await client.perform(RESTRequest(.get, path: "/a"))
        }

        guard case .transport = try #require(error) else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
    }
}

extension URLSessionTransportTests {
    @Test("a server that never answers fails with a transport time-out after the configured time")
    func timeout() async throws {
        let server = try LoopbackServer(response: nil)
        defer { server.stop() }
        let client = RESTClient(transport: try Self.transport(server.baseURL.absoluteString, timeout: 1))
        let started = ContinuousClock.now

        let error = await #expect(throws: RepositoryError.self) {
            try await client.perform(RESTRequest(.get, path: "/slow"))
        }

        // Well under URLSession's 60 s default, yet loose enough for a loaded CI machine
        // (7 s seen with two builds running on two cores): the timedOut code proves the rest.
        #expect(ContinuousClock.now - started < .seconds(30))
        guard case .transport(let underlying) = try #require(error) else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect((underlying as? URLError)?.code == .timedOut)
    }
}
