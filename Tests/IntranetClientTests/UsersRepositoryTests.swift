import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("UsersRepository")
struct UsersRepositoryTests {
    private static func signedIn(_ transport: MockTransport) -> IntranetClient {
        makeIntranet(transport, store: InMemorySessionStore(session: Accounts.session(token: "adm", user: Accounts.admin)))
    }

    @Test("list sends GET /users with the admin's token and decodes every account")
    func list() async throws {
        let transport = MockTransport(script: [.json([Accounts.admin, Accounts.editor])])
        let intranet = Self.signedIn(transport)

        let users = try await intranet.users.list()

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .get)
        #expect(sent.request.path == "/users")
        #expect(sent.headerFields[.authorization] == "Bearer adm")
        #expect(sent.body == nil)
        #expect(users == [Accounts.admin, Accounts.editor])
    }

    @Test("create posts the new user as JSON and decodes the 201 answer")
    func create() async throws {
        let created = User(id: 9, username: "zoe", displayName: "Zoë", role: .reader)
        let transport = MockTransport(script: [.json(created, status: .created, headerFields: .of([("Location", "/users/9")]))])
        let intranet = Self.signedIn(transport)

        let user = try await intranet.users.create(NewUser(username: "zoe", displayName: "Zoë", role: .reader, password: "correct horse"))

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .post)
        #expect(sent.request.path == "/users")
        #expect(sent.headerFields[.contentType] == "application/json")
        #expect(sent.headerFields[.authorization] == "Bearer adm")
        #expect(try sent.bodyJSON() == ["username": "zoe", "displayName": "Zoë", "role": "reader", "password": "correct horse"])
        #expect(user == created)
    }

    @Test("a taken username is a conflict with the server's detail")
    func createConflict() async throws {
        let transport = MockTransport(script: [.problem(.conflict, detail: "The username zoe is taken.")])
        let intranet = Self.signedIn(transport)

        let error = await #expect(throws: RepositoryError.self) {
            try await intranet.users.create(NewUser(username: "zoe", displayName: "", role: .reader, password: "12345678"))
        }

        #expect(error?.userMessage == "The username zoe is taken.")
    }

    @Test("setRole sends PATCH /users/{id} as a merge patch carrying only the role")
    func setRole() async throws {
        let promoted = User(id: 3, username: "ed", displayName: "Ed", role: .admin)
        let transport = MockTransport(script: [.json(promoted)])
        let intranet = Self.signedIn(transport)

        let user = try await intranet.users.setRole(.admin, id: 3)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .patch)
        #expect(sent.request.path == "/users/3")
        #expect(sent.headerFields[.contentType] == "application/merge-patch+json")
        #expect(try sent.bodyJSON() == ["role": "admin"])
        #expect(user == promoted)
    }

    private static let patches: [(UserPatch, JSONValue)] = [
        (UserPatch(displayName: "Edward"), ["displayName": "Edward"]),
        (UserPatch(password: "n3w-secret"), ["password": "n3w-secret"]),
        (UserPatch(displayName: "E", role: .reader, password: "pw-pw-pw"), ["displayName": "E", "role": "reader", "password": "pw-pw-pw"]),
        (UserPatch(), [:]),
    ]

    @Test("a patch sends exactly the fields given", arguments: patches)
    func patchFields(patch: UserPatch, expected: JSONValue) async throws {
        let transport = MockTransport(script: [.json(Accounts.editor)])
        let intranet = Self.signedIn(transport)

        _ = try await intranet.users.patchUnconditionally(patch, id: 3)

        #expect(try await transport.lastRequest?.bodyJSON() == expected)
    }

    @Test("a patch's description, debug description and dump never show the password")
    func patchDescription() {
        let patch = UserPatch(role: .editor, password: "hunter2-secret")
        var dumped = ""

        dump(patch, to: &dumped)
        let text = "\(patch) \(String(reflecting: patch)) \(dumped)"

        #expect(!text.contains("hunter2-secret"))
        #expect(patch.description == "UserPatch(role: editor, password: <redacted>)")
    }

    @Test("delete sends DELETE /users/{id} and accepts 204")
    func delete() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let intranet = Self.signedIn(transport)

        try await intranet.users.deleteUnconditionally(id: 7)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .delete)
        #expect(sent.request.path == "/users/7")
        #expect(sent.headerFields[.authorization] == "Bearer adm")
    }

    @Test("a reader's token is forbidden (403) and keeps the session")
    func forbidden() async throws {
        let transport = MockTransport(script: [.problem(.forbidden)])
        let store = InMemorySessionStore(session: Accounts.session(token: "rdr"))
        let intranet = makeIntranet(transport, store: store)

        let error = await #expect(throws: RepositoryError.self) { try await intranet.users.list() }

        guard case .forbidden = try #require(error) else {
            Issue.record("expected forbidden, got \(String(describing: error))")
            return
        }
        #expect(await store.load()?.token == "rdr")
    }
}
