import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Testing

/// Sign-in, roles and restricted announcements through the SDK against the real server.
@Suite("Sessions end to end")
struct SessionsEndToEndTests {
    @Test("login, me and logout work, and the sign-in state follows them")
    func session() async throws {
        try await withLiveServer { url in
            let intranet = IntranetClient(baseURL: url, apiVersion: .v2_0)
            var states = await intranet.session.states().makeAsyncIterator()
            let initial = await states.next()

            let session = try await intranet.session.login(username: "Reader", password: liveTestPassword)
            let signedIn = await states.next()
            let me = try await intranet.session.me()
            let outcome = await intranet.session.logout()
            let signedOut = await states.next()
            let error = await #expect(throws: RepositoryError.self) { try await intranet.session.me() }

            #expect(initial?.isAuthenticated == false)
            #expect(session.user.username == "reader")
            #expect(signedIn?.isAuthenticated == true)
            #expect(me.role == .reader)
            #expect(String(describing: outcome).contains("revoked"))
            #expect(signedOut?.isAuthenticated == false)
            guard case .unauthorized = try #require(error) else {
                Issue.record("expected unauthorized, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("a wrong password is the typed unauthorized error")
    func wrongPassword() async throws {
        try await withLiveServer { url in
            let intranet = IntranetClient(baseURL: url, apiVersion: .v2_0)

            let error = await #expect(throws: RepositoryError.self) {
                try await intranet.session.login(username: "editor", password: "not the password")
            }

            guard case .unauthorized = try #require(error) else {
                Issue.record("expected unauthorized, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("an announcement restricted to the reader is visible to them and hidden from anonymous clients")
    func restricted() async throws {
        try await withLiveServer { url in
            let editor = try await signedInClient(url, as: "editor")
            let reader = try await signedInClient(url, as: "reader")
            let anonymous = IntranetClient(baseURL: url, apiVersion: .v2_0)

            let created = try await editor.announcements.create(AnnouncementDraft(title: "Board only", readers: .only([3])))
            let asEditor = try await editor.announcements.read(id: created.id)
            let asReader = try await reader.announcements.read(id: created.id)
            let anonymousList = try await anonymous.announcements.read(page: 1, pageSize: 100).items
            let error = await #expect(throws: RepositoryError.self) { try await anonymous.announcements.read(id: created.id) }

            #expect(asEditor.readers == .only([3]))
            #expect(asReader.title == "Board only")
            #expect(!anonymousList.contains { $0.id == created.id })
            guard case .notFound = try #require(error) else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("admins manage users through the SDK")
    func users() async throws {
        try await withLiveServer { url in
            let admin = try await signedInClient(url, as: "admin")

            let created = try await admin.users.create(NewUser(username: "nadia", role: .reader, password: "long enough"))
            let promoted = try await admin.users.setRole(.editor, id: created.id)
            let readBack = try await admin.users.read(id: created.id)
            let all = try await admin.users.list()
            try await admin.users.deleteUnconditionally(id: created.id)
            let after = try await admin.users.list()

            #expect(created.displayName == "nadia")
            #expect(promoted.role == .editor)
            #expect(readBack == promoted)
            #expect(all.map(\.username) == ["admin", "editor", "reader", "nadia"])
            #expect(after.count == 3)
        }
    }
}
