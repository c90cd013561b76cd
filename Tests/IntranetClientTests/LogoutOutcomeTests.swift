import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("Logout outcomes")
struct LogoutOutcomeTests {
    @Test("logout posts /logout with the bearer token, the server revokes it, the store is cleared")
    func revoked() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "tok-1"))
        let transport = MockTransport(script: [.status(.noContent), .json([AnnouncementV2.ListItem]())])
        let intranet = makeIntranet(transport, store: store)

        let outcome = await intranet.session.logout()
        try await intranet.restClient.perform(RESTRequest(.get, path: "/announcements"))

        guard case .revoked = outcome.server else {
            Issue.record("expected revoked, got \(outcome.server)")
            return
        }
        let requests = await transport.requests
        #expect(requests.first?.method == .post)
        #expect(requests.first?.request.path == "/logout")
        #expect(requests.first?.headerFields[.authorization] == "Bearer tok-1")
        #expect(requests.first?.body == nil)
        #expect(requests.last?.headerFields[.authorization] == nil)
        #expect(await store.load() == nil)
    }

    @Test("a 401 from /logout means the token was already dead: cleared, alreadyInvalid")
    func alreadyInvalid() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "tok-1"))
        let transport = MockTransport(script: [Accounts.unauthorized])
        let intranet = makeIntranet(transport, store: store)

        let outcome = await intranet.session.logout()

        guard case .alreadyInvalid = outcome.server else {
            Issue.record("expected alreadyInvalid, got \(outcome)")
            return
        }
        #expect(outcome.isTokenDead)
        #expect(await store.load() == nil)
    }

    @Test("an unreachable server still signs out here and says the token was not revoked")
    func unreachable() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "tok-1"))
        let transport = MockTransport(script: [.failure(URLError(.cannotConnectToHost))])
        let intranet = makeIntranet(transport, store: store)

        let outcome = await intranet.session.logout()

        guard case .notRevoked(.transport) = outcome.server else {
            Issue.record("expected notRevoked(transport), got \(outcome)")
            return
        }
        #expect(!outcome.isTokenDead)
        #expect(outcome.userMessage.contains("stays valid on the server"))
        #expect(await store.load() == nil)
        #expect(await intranet.session.state == .signedOut)
    }

    @Test("a 503 from /logout is not retried and reported as not revoked")
    func serverError() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "tok-1"))
        let transport = MockTransport(script: [.status(.serviceUnavailable), .status(.noContent)])
        let intranet = makeIntranet(transport, store: store)

        let outcome = await intranet.session.logout()

        guard case .notRevoked(let error) = outcome.server else {
            Issue.record("expected notRevoked, got \(outcome)")
            return
        }
        #expect(error.statusCode == 503)
        #expect(await transport.requests.count == 1)
        #expect(await store.load() == nil)
    }

    @Test("logout with nothing stored sends no request")
    func notSignedIn() async throws {
        let transport = MockTransport(script: [])
        let intranet = makeIntranet(transport, store: InMemorySessionStore())

        let outcome = await intranet.session.logout()

        guard case .notSignedIn = outcome.server else {
            Issue.record("expected notSignedIn, got \(outcome)")
            return
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("logout with an expired session sends nothing and drops it")
    func expired() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "stale", expiresIn: -60))
        let transport = MockTransport(script: [])
        let intranet = makeIntranet(transport, store: store)

        let outcome = await intranet.session.logout()

        guard case .alreadyInvalid = outcome.server else {
            Issue.record("expected alreadyInvalid, got \(outcome)")
            return
        }
        #expect(await transport.requests.isEmpty)
        #expect(await store.load() == nil)
    }
}
