import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepositoryTesting
import Testing

/// Lets a scripted server call back into the client it serves.
private actor ClientHolder {
    private(set) var client: IntranetClient?
    func set(_ client: IntranetClient) { self.client = client }
}

/// Records the waits the client's retries ask for, instead of sleeping.
private actor Waits {
    private(set) var all: [Duration] = []
    func record(_ wait: Duration) { all.append(wait) }
}

/// The SDK's surface as an app developer meets it: one error per failure, loud conditions,
/// a fast failure on a dead network, one way to ask each question.
@Suite("SDK surface")
struct SDKSurfaceTests {
    private static func client(_ transport: MockTransport, waits: Waits) -> IntranetClient {
        IntranetClient(
            transport: transport, apiVersion: .v2_0,
            configuration: IntranetClientConfiguration(sleep: { await waits.record($0) }))
    }

    @Test("by default a refused connection fails at once: one attempt, no wait")
    func defaultFailsFastOffline() async throws {
        let transport = MockTransport(script: [.failure(URLError(.cannotConnectToHost)), .json([AnnouncementV2.ListItem]())])
        let waits = Waits()

        let error = await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, waits: waits).announcements.read(page: 1, pageSize: 10)
        }

        guard case .transport = try #require(error) else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect(await transport.requests.count == 1)
        #expect(await waits.all.isEmpty)
    }

    @Test("by default a busy server (503, 429) is asked again after a back-off")
    func defaultRetriesBusyServer() async throws {
        let transport = MockTransport(script: [
            .status(.serviceUnavailable),
            .status(.tooManyRequests, headerFields: .of([("Retry-After", "2")])),
            .json([AnnouncementV2.ListItem(id: 1, title: "A")]),
        ])
        let waits = Waits()

        let page = try await Self.client(transport, waits: waits).announcements.read(page: 1, pageSize: 10)

        #expect(page.items.map(\.title) == ["A"])
        #expect(await waits.all == [.milliseconds(500), .seconds(2)])
    }

    @Test("a conditional write with a value read without an ETag is refused before anything is sent")
    func writeWithoutETagIsLoud() async throws {
        let transport = MockTransport(script: [.json(AnnouncementV2.Detail(
            id: 4, title: "T", body: nil, createdAt: Date(), updatedAt: Date()), encoder: IntranetJSON.encoder())])
        let intranet = makeIntranet(transport, store: InMemorySessionStore())
        let read = try await intranet.announcements.readVersioned(id: 4)

        let error = await #expect(throws: RepositoryError.self) {
            try await intranet.announcements.patch(AnnouncementPatch(title: "New"), of: read)
        }

        #expect(read.etag == nil)
        guard case .missingETag = try #require(error) else {
            Issue.record("expected missingETag, got \(String(describing: error))")
            return
        }
        #expect(error?.userMessage.contains("Read it again") == true)
        #expect(await transport.requests.map(\.method) == [.get])
    }

    @Test("a login whose session cannot be kept fails as a RepositoryError, revokes the new token and leaves the client signed out")
    func loginStoreFailureIsRepositoryError() async throws {
        let transport = MockTransport(script: [Accounts.loginAnswer(token: "tok-1"), .status(.noContent)])
        let intranet = makeIntranet(transport, store: FailingSessionStore(session: nil))

        let error = await #expect(throws: RepositoryError.self) {
            try await intranet.session.login(username: "ed", password: "pw")
        }

        guard case .localStore(let underlying) = try #require(error) else {
            Issue.record("expected localStore, got \(String(describing: error))")
            return
        }
        #expect(underlying is FailingSessionStore.DiskFull)
        #expect(await intranet.session.state == .signedOut)
        let revoke = try #require(await transport.requests.last)
        #expect(revoke.path == "/logout")
        #expect(revoke.headerFields[.authorization] == "Bearer tok-1")
    }

    @Test("logging out an expired session whose file cannot be deleted says so in the outcome")
    func expiredLogoutReportsStoreFailure() async throws {
        let transport = MockTransport(script: [])
        let intranet = makeIntranet(transport, store: FailingSessionStore(session: Accounts.session(expiresIn: -60)))

        let outcome = await intranet.session.logout()

        guard case .alreadyInvalid = outcome.server else {
            Issue.record("expected alreadyInvalid, got \(outcome.server)")
            return
        }
        #expect(outcome.storeFailure != nil)
        #expect(outcome.userMessage.contains("no space left on device"))
        #expect(await transport.requests.isEmpty)
    }

    @Test("a login that finishes while a logout is on the wire stays signed in")
    func loginDuringLogoutSurvives() async throws {
        let holder = ClientHolder()
        let transport = MockTransport { request in
            guard request.path == "/logout" else { return Accounts.loginAnswer(token: "tok-2") }
            try await holder.client?.session.login(username: "ed", password: "pw")  // another task, meanwhile
            return .status(.noContent)
        }
        let intranet = makeIntranet(transport, store: InMemorySessionStore(session: Accounts.session(token: "tok-1")))
        await holder.set(intranet)

        let outcome = await intranet.session.logout()

        guard case .revoked = outcome.server else {
            Issue.record("expected revoked, got \(outcome.server)")
            return
        }
        #expect(await intranet.session.state == .signedIn(Accounts.editor))
        #expect(await transport.requests.map(\.path) == ["/logout", "/login"])
    }

    @Test("logout never throws: a store that cannot delete is reported in the outcome")
    func logoutReportsStoreFailure() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let intranet = makeIntranet(transport, store: FailingSessionStore(session: Accounts.session(token: "tok-1")))

        let outcome = await intranet.session.logout()

        guard case .revoked = outcome.server else {
            Issue.record("expected revoked, got \(outcome.server)")
            return
        }
        guard case .localStore? = outcome.storeFailure else {
            Issue.record("expected a localStore failure, got \(String(describing: outcome.storeFailure))")
            return
        }
        #expect(outcome.userMessage.contains("could not be deleted"))
        #expect(await intranet.session.state == .signedOut)
    }

    @Test("session.me() asks the server and keeps the fresher user in the session state")
    func meRefreshesState() async throws {
        let promoted = User(id: Accounts.editor.id, username: "ed", displayName: "Ed", role: .admin)
        let transport = MockTransport(script: [.json(promoted)])
        let intranet = makeIntranet(transport, store: InMemorySessionStore(session: Accounts.session()))

        let me = try await intranet.session.me()

        #expect(me.role == .admin)
        #expect(await intranet.session.state == .signedIn(promoted))
        #expect(await transport.lastRequest?.path == "/users/me")
    }

    @Test("a new user without a display name sends none, so the server uses the username")
    func newUserDisplayNameOptional() async throws {
        let created = User(id: 9, username: "anna", displayName: "anna", role: .reader)
        let transport = MockTransport(script: [.json(created, status: .created)])
        let intranet = makeIntranet(transport, store: InMemorySessionStore(session: Accounts.session(user: Accounts.admin)))

        let user = try await intranet.users.create(NewUser(username: "anna", password: "long enough"))

        #expect(user == created)
        let sent = try #require(await transport.lastRequest)
        #expect(try sent.bodyJSON() == ["username": "anna", "role": "reader", "password": "long enough"])
        #expect(!String(describing: NewUser(username: "anna", password: "long enough")).contains("long enough"))
    }

    @Test("users.read(id:) sends GET /users/{id}; an unknown id is notFound")
    func readUserByID() async throws {
        let transport = MockTransport(script: [.json(Accounts.editor), .problem(.notFound, detail: "No user has this id.")])
        let intranet = makeIntranet(transport, store: InMemorySessionStore(session: Accounts.session(user: Accounts.admin)))

        let user = try await intranet.users.read(id: 3)
        let error = await #expect(throws: RepositoryError.self) { try await intranet.users.read(id: 99) }

        #expect(user == Accounts.editor)
        #expect(await transport.requests.map(\.path) == ["/users/3", "/users/99"])
        guard case .notFound = try #require(error) else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
    }

    @Test("LoadState.isLoaded is true only for a current value", arguments: [
        (LoadState<Int>.idle, false), (.loading(previous: 1), false), (.loaded(1), true),
        (.failed(message: "x", previous: 1), false),
    ])
    func loadStateIsLoaded(state: LoadState<Int>, expected: Bool) {
        #expect(state.isLoaded == expected)
    }
}
