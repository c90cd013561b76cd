import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("BearerTokenMiddleware")
struct BearerTokenMiddlewareTests {
    @Test("an excluded path such as /login goes without the token, others carry it")
    func excludedPath() async throws {
        let transport = MockTransport(script: [.status(.ok), .status(.ok), .status(.ok)])
        let bearer = BearerTokenMiddleware(tokenProvider: { "t0k" }, excludedPaths: ["/login"], onUnauthorized: nil)
        let client = RESTClient(transport: transport.with(bearer))

        try await client.perform(RESTRequest(.post, path: "/login"))
        try await client.perform(RESTRequest(.post, path: "/login", query: [URLQueryItem(name: "a", value: "1")]))
        try await client.perform(RESTRequest(.get, path: "/login/other"))

        let sent = await transport.requests.map { $0.headerFields[.authorization] }
        #expect(sent == [nil, nil, "Bearer t0k"])
    }

    @Test("a 401 answer to a request that carried the token reports that token and still fails")
    func unauthorizedReported() async throws {
        let failed = FailedTokens()
        let transport = MockTransport(script: [.problem(.unauthorized), .status(.ok)])
        let bearer = BearerTokenMiddleware(tokenProvider: { "t0k" }, excludedPaths: [], onUnauthorized: { await failed.add($0) })
        let client = RESTClient(transport: transport.with(bearer))

        let error = await #expect(throws: RepositoryError.self) {
            try await client.perform(RESTRequest(.get, path: "/users/me"))
        }
        try await client.perform(RESTRequest(.get, path: "/users/me"))

        #expect(error?.statusCode == 401)
        #expect(await failed.tokens == ["t0k"])
    }

    @Test("a 401 to a request sent without the provider's token reports nothing")
    func unauthorizedWithoutToken() async throws {
        let failed = FailedTokens()
        let transport = MockTransport(script: [.problem(.unauthorized), .problem(.unauthorized), .problem(.unauthorized)])
        let bearer = BearerTokenMiddleware(tokenProvider: { nil }, excludedPaths: ["/login"], onUnauthorized: { await failed.add($0) })
        let explicit = BearerTokenMiddleware(tokenProvider: { "t0k" }, excludedPaths: ["/login"], onUnauthorized: { await failed.add($0) })
        let signedOut = RESTClient(transport: transport.with(bearer))
        let signedIn = RESTClient(transport: transport.with(explicit))

        await #expect(throws: RepositoryError.self) { try await signedOut.perform(RESTRequest(.get, path: "/a")) }
        await #expect(throws: RepositoryError.self) { try await signedIn.perform(RESTRequest(.post, path: "/login")) }
        await #expect(throws: RepositoryError.self) {
            try await signedIn.perform(RESTRequest(.post, path: "/logout", headerFields: .fields([("Authorization", "Bearer mine")])))
        }

        #expect(await failed.tokens.isEmpty)
        #expect(await transport.lastRequest?.headerFields[.authorization] == "Bearer mine")
    }
}

/// Collects the tokens a middleware reported as refused.
private actor FailedTokens {
    private(set) var tokens: [String] = []

    func add(_ token: String) {
        tokens.append(token)
    }
}
