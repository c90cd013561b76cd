import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Header, token and signing middleware")
struct MiddlewareTests {
    @Test("default headers and Accept-Version are added unless the request sets its own")
    func defaultHeaders() async throws {
        let transport = MockTransport(script: [.status(.ok), .status(.ok)])
        let client = RESTClient(transport: transport.with(
            HeaderFieldsMiddleware(.fields([("Accept", "application/json")])),
            HeaderFieldsMiddleware.acceptVersion("2.0")))

        try await client.perform(RESTRequest(.get, path: "/a"))
        try await client.perform(RESTRequest(.get, path: "/a", headerFields: .fields([("Accept-Version", "1.0")])))

        let requests = await transport.requests
        #expect(requests.first?.headerFields[.accept] == "application/json")
        #expect(requests.first?.headerFields[.acceptVersion] == "2.0")
        #expect(requests.last?.headerFields[values: .acceptVersion] == ["1.0"])
    }

    @Test("the token provider is asked on every request and sent as a bearer token")
    func bearerToken() async throws {
        let tokens = TokenStore()
        let transport = MockTransport(script: [.status(.ok), .status(.ok), .status(.ok)])
        let client = RESTClient(transport: transport.with(BearerTokenMiddleware { await tokens.next() }))

        for _ in 0..<3 { try await client.perform(RESTRequest(.get, path: "/a")) }

        let sent = await transport.requests.map { $0.headerFields[.authorization] }
        #expect(sent == ["Bearer t1", "Bearer t2", nil])
    }

    @Test("the signing hook sees the final request and body and its fields are sent")
    func signingHook() async throws {
        let transport = MockTransport(script: [.status(.ok)])
        let signer = RequestSigningMiddleware { request, body in
            let size = body?.count ?? 0
            request.headerFields[.xSignature] = "\(request.method.rawValue) \(request.path ?? "") \(size)"
        }
        let client = RESTClient(transport: transport.with(HeaderFieldsMiddleware.acceptVersion("2.0"), signer))

        try await client.perform(RESTRequest(.post, path: "/a", query: [URLQueryItem(name: "q", value: "1")], body: Data("abc".utf8)))

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.xSignature] == "POST /a?q=1 3")
        #expect(sent.headerFields[.acceptVersion] == "2.0")
    }

    @Test("the first middleware sees the request first")
    func order() async throws {
        let transport = MockTransport(script: [.status(.ok)])
        let client = RESTClient(transport: transport.with(
            HeaderFieldsMiddleware(.fields([("X-Order", "outer")])),
            HeaderFieldsMiddleware(.fields([("X-Order", "inner")]))))

        try await client.perform(RESTRequest(.get, path: "/a"))

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[values: HTTPField.Name("X-Order")!] == ["outer"])
    }
}

/// Hands out `t1`, `t2`, then nothing (signed out).
actor TokenStore {
    private var tokens = ["t1", "t2"]

    func next() -> String? {
        tokens.isEmpty ? nil : tokens.removeFirst()
    }
}
