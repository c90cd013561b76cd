import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("SessionRepository")
struct SessionRepositoryTests {
    private static let editor = IntranetUser(id: 3, username: "ed", displayName: "Ed", role: .editor)

    private static func session(expiresIn seconds: TimeInterval = 3600) -> MockResponse {
        .json(Session(token: "tok", expiresAt: Date().addingTimeInterval(seconds), user: editor), encoder: IntranetJSON.encoder())
    }

    @Test("login posts the credentials and later requests carry the bearer token")
    func loginThenAuthorized() async throws {
        let transport = MockTransport(script: [Self.session(), .status(.noContent)])
        let intranet = makeIntranet(transport, version: .v2_0)

        let session = try await intranet.session.login(username: "ed", password: "pw")
        try await intranet.announcements.delete(id: 1)

        #expect(session.user.canEditAnnouncements)
        let requests = await transport.requests
        #expect(requests.first?.method == .post)
        #expect(requests.first?.path == "/login")
        #expect(try requests.first?.bodyJSON() == ["username": "ed", "password": "pw"])
        #expect(requests.first?.headerFields[.authorization] == nil)
        #expect(requests.last?.headerFields[.authorization] == "Bearer tok")
    }

    @Test("logout revokes on the server and stops sending the token")
    func logout() async throws {
        let transport = MockTransport(script: [Self.session(), .status(.noContent), .status(.noContent)])
        let intranet = makeIntranet(transport, version: .v2_0)

        try await intranet.session.login(username: "ed", password: "pw")
        try await intranet.session.logout()
        try await intranet.announcements.delete(id: 1)

        let requests = await transport.requests
        #expect(requests[1].path == "/logout")
        #expect(requests[1].headerFields[.authorization] == "Bearer tok")
        #expect(requests[2].headerFields[.authorization] == nil)
        #expect(await intranet.credentials.session == nil)
    }

    @Test("an expired session sends no token")
    func expiredToken() async throws {
        let transport = MockTransport(script: [Self.session(expiresIn: -1), .status(.noContent)])
        let intranet = makeIntranet(transport, version: .v2_0)

        try await intranet.session.login(username: "ed", password: "pw")
        try await intranet.announcements.delete(id: 1)

        #expect(await transport.lastRequest?.headerFields[.authorization] == nil)
    }

    @Test("too many failed logins give rateLimited with the wait, and no retry")
    func loginRateLimited() async throws {
        let transport = MockTransport(script: [
            .problem(.tooManyRequests, headerFields: .of([("Retry-After", "900")])), Self.session(),
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

    @Test("the current user is a single-entity read of /users/me")
    func currentUser() async throws {
        let transport = MockTransport(script: [.json(Self.editor)])
        let intranet = makeIntranet(transport, version: .v2_0)

        let me = try await intranet.me.read()

        #expect(me == Self.editor)
        #expect(await transport.lastRequest?.path == "/users/me")
        #expect(await transport.lastRequest?.method == .get)
    }
}
