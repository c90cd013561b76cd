import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("SessionRepository")
struct SessionRepositoryTests {
    @Test("login posts exactly {username, password} to /login without a token and keeps the session")
    func login() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "old"))
        let transport = MockTransport(script: [Accounts.loginAnswer(token: "tok-1")])
        let intranet = makeIntranet(transport, store: store)

        let session = try await intranet.session.login(username: "ed", password: "pw")

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .post)
        #expect(sent.request.path == "/login")
        #expect(sent.headerFields[.contentType] == "application/json")
        #expect(sent.headerFields[.authorization] == nil)
        #expect(try sent.bodyJSON() == ["username": "ed", "password": "pw"])
        #expect(session.token == "tok-1")
        #expect(session.user == Accounts.editor)
        #expect(await store.load()?.token == "tok-1")
    }

    @Test("after login every request carries Authorization: Bearer with the new token")
    func bearerAfterLogin() async throws {
        let transport = MockTransport(script: [Accounts.loginAnswer(token: "tok-1"), .status(.noContent), .json([User]())])
        let intranet = makeIntranet(transport, store: InMemorySessionStore())

        try await intranet.session.login(username: "ed", password: "pw")
        try await intranet.announcements.deleteUnconditionally(id: 1)
        _ = try await intranet.users.list()

        let sent = await transport.requests.dropFirst().map { $0.headerFields[.authorization] }
        #expect(sent == ["Bearer tok-1", "Bearer tok-1"])
    }

    @Test("a wrong password is unauthorized and keeps the session already signed in")
    func wrongPassword() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "kept"))
        let transport = MockTransport(script: [.problem(.unauthorized, detail: "Wrong username or password.")])
        let intranet = makeIntranet(transport, store: store)

        let error = await #expect(throws: RepositoryError.self) {
            try await intranet.session.login(username: "ed", password: "wrong")
        }

        guard case .unauthorized = try #require(error) else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(await store.load()?.token == "kept")
    }

    @Test("a 401 to a request with the token clears the stored session and throws unauthorized")
    func unauthorizedClears() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "revoked"))
        let transport = MockTransport(script: [Accounts.unauthorized, .json([AnnouncementV2.ListItem]())])
        let intranet = makeIntranet(transport, store: store)

        let error = await #expect(throws: RepositoryError.self) { try await intranet.users.list() }
        try await intranet.restClient.perform(RESTRequest(.get, path: "/announcements"))

        guard case .unauthorized = try #require(error) else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(await store.load() == nil)
        #expect(await intranet.session.state == .signedOut)
        let sent = await transport.requests.map { $0.headerFields[.authorization] }
        #expect(sent == ["Bearer revoked", nil])
    }

    @Test("an expired stored session is not sent and reads as signed out")
    func expiredNotSent() async throws {
        let store = InMemorySessionStore(session: Accounts.session(token: "stale", expiresIn: -1))
        let transport = MockTransport(script: [.json([AnnouncementV2.ListItem]())])
        let intranet = makeIntranet(transport, store: store)

        try await intranet.restClient.perform(RESTRequest(.get, path: "/announcements"))

        #expect(await transport.lastRequest?.headerFields[.authorization] == nil)
        #expect(await intranet.session.state == .signedOut)
        #expect(await store.load() == nil)
    }

    @Test("too many failed logins give rateLimited with the wait, and no retry")
    func loginRateLimited() async throws {
        let transport = MockTransport(script: [
            .problem(.tooManyRequests, headerFields: .of([("Retry-After", "900")])), Accounts.loginAnswer(),
        ])
        let intranet = makeIntranet(transport, version: .v2_0)

        let error = await #expect(throws: RepositoryError.self) {
            try await intranet.session.login(username: "ed", password: "wrong")
        }

        guard case .rateLimited(_, let retryAfter) = try #require(error) else {
            Issue.record("expected rateLimited, got \(String(describing: error))")
            return
        }
        #expect(retryAfter == .seconds(900))
        #expect(await transport.requests.count == 1)
    }

    @Test("me() reads GET /users/me with the token and keeps a changed role in the session")
    func me() async throws {
        let promoted = User(id: 3, username: "ed", displayName: "Ed", role: .admin)
        let store = InMemorySessionStore(session: Accounts.session(token: "tok-1"))
        let transport = MockTransport(script: [.json(promoted)])
        let intranet = makeIntranet(transport, store: store)

        let me = try await intranet.session.me()

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .get)
        #expect(sent.request.path == "/users/me")
        #expect(sent.headerFields[.authorization] == "Bearer tok-1")
        #expect(sent.body == nil)
        #expect(me == promoted)
        #expect(await store.load()?.user.role == .admin)
        #expect(await intranet.session.state == .signedIn(promoted))
    }

    @Test("me() signed out sends no token and throws unauthorized")
    func meSignedOut() async throws {
        let transport = MockTransport(script: [Accounts.unauthorized])
        let intranet = makeIntranet(transport, store: InMemorySessionStore())

        let error = await #expect(throws: RepositoryError.self) { try await intranet.session.me() }

        #expect(error?.statusCode == 401)
        #expect(await transport.lastRequest?.headerFields[.authorization] == nil)
    }
}
