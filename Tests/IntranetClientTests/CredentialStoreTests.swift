import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("CredentialStore sign-in state stream")
struct CredentialStoreTests {
    private static let editor = SessionState.signedIn(Accounts.editor)

    @Test("a subscriber gets the current state at once, then login, a 401 and logout in order")
    func stateChanges() async throws {
        let transport = MockTransport(script: [Accounts.loginAnswer(token: "a"), Accounts.unauthorized, Accounts.loginAnswer(token: "b"), .status(.noContent)])
        let intranet = makeIntranet(transport, store: InMemorySessionStore())
        let recorder = await StateRecorder.recording(await intranet.session.states())
        defer { Task { await recorder.stop() } }

        let initial = await recorder.received([.signedOut])
        try await intranet.session.login(username: "ed", password: "pw")
        let afterLogin = await recorder.received([.signedOut, Self.editor])
        _ = try? await intranet.users.list()
        let after401 = await recorder.received([.signedOut, Self.editor, .signedOut])
        try await intranet.session.login(username: "ed", password: "pw")
        await intranet.session.logout()

        #expect(initial)
        #expect(afterLogin)
        #expect(after401)
        #expect(await recorder.received([.signedOut, Self.editor, .signedOut, Self.editor, .signedOut]))
    }

    @Test("a session already in the store is signed in on subscribe")
    func storedSession() async throws {
        let credentials = CredentialStore(store: InMemorySessionStore(session: Accounts.session(user: Accounts.admin)))

        let recorder = await StateRecorder.recording(await credentials.states())
        defer { Task { await recorder.stop() } }

        #expect(await recorder.received([.signedIn(Accounts.admin)]))
        #expect(await credentials.state.isAuthenticated)
    }

    @Test("every subscriber gets every change")
    func multipleSubscribers() async throws {
        let credentials = CredentialStore()
        let first = await StateRecorder.recording(await credentials.states())
        let second = await StateRecorder.recording(await credentials.states())
        defer { Task { await first.stop(); await second.stop() } }

        try await credentials.set(Accounts.session())
        try await credentials.set(nil)

        #expect(await first.received([.signedOut, Self.editor, .signedOut]))
        #expect(await second.received([.signedOut, Self.editor, .signedOut]))
    }

    @Test("a new token for the same user is not a change, so subscribers hear nothing")
    func noRepeats() async throws {
        let credentials = CredentialStore()
        let recorder = await StateRecorder.recording(await credentials.states())
        defer { Task { await recorder.stop() } }

        try await credentials.set(Accounts.session(token: "a"))
        try await credentials.set(Accounts.session(token: "b"))
        try await credentials.set(nil)

        #expect(await recorder.received([.signedOut, Self.editor, .signedOut]))
    }

    @Test("a subscriber whose stream is dropped or whose listener is cancelled is removed")
    func finishedSubscribersRemoved() async throws {
        let credentials = CredentialStore()
        let listening = await StateRecorder.recording(await credentials.states())
        var countWhileSubscribed = 0

        do {
            let dropped = await credentials.states()
            countWhileSubscribed = await credentials.observerCount
            withExtendedLifetime(dropped) {}
        }
        await listening.stop()

        #expect(countWhileSubscribed == 2)
        #expect(await eventually { await credentials.observerCount == 0 })
    }

    @Test("a 401 for an older token does not sign out a newer session")
    func staleUnauthorized() async throws {
        let credentials = CredentialStore()
        try await credentials.set(Accounts.session(token: "new"))

        await credentials.clear(ifToken: "old")
        let afterOld = await credentials.token
        await credentials.clear(ifToken: "new")

        #expect(afterOld == "new")
        #expect(await credentials.token == nil)
    }
}
