import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import IntranetTerminal

@Suite("whoami and the users commands")
struct UserCommandTests {
    private let users = MockResponse.json([
        User(id: 1, username: "admin", displayName: "Ada Admin", role: .admin),
        User(id: 2, username: "zoe", displayName: "Zoë Lefèvre", role: .editor),
        User(id: 13, username: "bob.reader", displayName: "Bob", role: .reader),
    ])

    @Test("whoami asks GET /users/me and prints display name, user name and role")
    func whoami() async {
        let transport = MockTransport(script: [.json(User(id: 2, username: "zoe", displayName: "Zoë Lefèvre", role: .editor))])

        let result = await runIntranet(["whoami"], transport: transport)

        #expect(result.status == 0)
        #expect(result.output == "Zoë Lefèvre (zoe, editor)\n")
        #expect(await transport.lastRequest?.method == .get)
        #expect(await transport.lastRequest?.path == "/users/me")
    }

    @Test("whoami when signed out or the session ended is status 77 with the usual sign-in line")
    func whoamiSignedOut() async {
        let result = await runIntranet(["whoami"], transport: MockTransport(script: [.problem(.unauthorized)]))

        #expect(result.status == 77)
        #expect(result.output.isEmpty)
        #expect(result.errors == "intranet: not signed in, or the session has ended (401) — sign in with: intranet login --server http://127.0.0.1:8080\n")
    }

    @Test("users list prints an aligned table of id, user name, role and display name")
    func listTable() async {
        let transport = MockTransport(script: [users])

        let result = await runIntranet(["users", "list"], transport: transport)

        #expect(result.status == 0)
        #expect(result.output == """
            ID  USERNAME    ROLE    DISPLAY NAME
             1  admin       admin   Ada Admin
             2  zoe         editor  Zoë Lefèvre
            13  bob.reader  reader  Bob

            """)
        #expect(await transport.lastRequest?.path == "/users")
    }

    @Test("a reader's users list is status 77 and says that an admin is needed")
    func forbidden() async {
        let result = await runIntranet(["users"], transport: MockTransport(script: [.problem(.forbidden, detail: "Only admins may do this.")]))

        #expect(result.status == 77)
        #expect(result.errors == "intranet: managing users needs an admin's session (403: Only admins may do this.)\n")
    }

    @Test("users create --password-stdin posts the new user and prints what the server stored")
    func create() async throws {
        let transport = MockTransport(script: [.json(User(id: 14, username: "lea", displayName: "Léa", role: .editor), status: .created)])

        let result = await runIntranet(
            ["users", "create", "--username", "lea", "--role", "editor", "--display-name", "Léa", "--password-stdin"],
            transport: transport, terminal: CapturedTerminal(input: Data("long enough pw\n".utf8)))

        let sent = try #require(await transport.lastRequest)
        #expect(result.status == 0)
        #expect(result.output == "Created user 14: Léa (lea, editor).\n")
        #expect(sent.method == .post && sent.path == "/users")
        #expect(try sent.bodyJSON() == ["username": "lea", "displayName": "Léa", "role": "editor", "password": "long enough pw"])
        #expect(!result.output.contains("long enough pw") && !result.errors.contains("long enough pw"))
    }

    @Test("on a terminal users create asks twice without echo; different answers stop before any request")
    func createAsksTwice() async {
        let unused = MockTransport(script: [])

        let result = await runIntranet(["users", "create", "--username", "lea", "--role", "reader"], transport: unused,
                                       terminal: CapturedTerminal(lines: ["first password", "second password"]), isInputTerminal: true)

        #expect(result.status == 64)
        #expect(result.errors == "Password for lea: Again: intranet: the two passwords differ; nothing was changed\n")
        #expect(await unused.requests.isEmpty)
    }

    @Test("a taken user name is status 75 with the server's detail; invalid fields are 65 with each message")
    func createRejected() async {
        let input = CapturedTerminal(input: Data("long enough pw".utf8))
        let taken = await runIntranet(["users", "create", "--username", "zoe", "--role", "reader", "--password-stdin"],
                                      transport: MockTransport(script: [.problem(.conflict, detail: "The username zoe is taken.")]), terminal: input)
        let invalid = await runIntranet(
            ["users", "create", "--username", "a b", "--role", "reader", "--password-stdin"],
            transport: MockTransport(script: [.problem(.unprocessableContent, fieldErrors: [("username", "may only contain letters"), ("password", "is too short")])]),
            terminal: CapturedTerminal(input: Data("short".utf8)))

        #expect(taken.status == 75)
        #expect(taken.errors == "intranet: the new user conflicts with the server's state: The username zoe is taken.\n")
        #expect(invalid.status == 65)
        #expect(invalid.errors == "intranet: the server did not accept the new user: username may only contain letters; password is too short\n")
    }

    @Test("set-role looks the id up by user name, patches the role, and a last-admin refusal is status 75")
    func setRole() async throws {
        let transport = MockTransport(script: [users, .json(User(id: 2, username: "zoe", displayName: "Zoë Lefèvre", role: .admin))])
        let lastAdmin = MockTransport(script: [users, .problem(.conflict, detail: "The last admin cannot lose the admin role.")])

        let result = await runIntranet(["users", "set-role", "ZOE", "admin"], transport: transport)
        let refused = await runIntranet(["users", "set-role", "admin", "reader"], transport: lastAdmin)

        let requests = await transport.requests
        #expect(result.status == 0)
        #expect(result.output == "zoe is now admin.\n")
        #expect(requests.map(\.path) == ["/users", "/users/2"])
        #expect(requests[1].method == .patch)
        #expect(try requests[1].bodyJSON() == ["role": "admin"])
        #expect(refused.status == 75)
        #expect(refused.errors == "intranet: user admin conflicts with the server's state: The last admin cannot lose the admin role.\n")
    }

    @Test("delete refuses without a terminal, asks on one, deletes with --yes, and an unknown name is 66")
    func delete() async {
        let unused = MockTransport(script: [])
        let noTerminal = await runIntranet(["users", "delete", "zoe"], transport: unused)
        let declinedTransport = MockTransport(script: [users])
        let declined = await runIntranet(["users", "delete", "zoe"], transport: declinedTransport,
                                         terminal: CapturedTerminal(lines: ["n"]), isInputTerminal: true)
        let transport = MockTransport(script: [users, .status(.noContent)])
        let deleted = await runIntranet(["users", "delete", "bob.reader", "--yes"], transport: transport)
        let unknown = await runIntranet(["users", "delete", "nobody", "--yes"], transport: MockTransport(script: [users]))

        #expect(noTerminal.status == 64)
        #expect(noTerminal.errors.contains("pass --yes"))
        #expect(await unused.requests.isEmpty)
        #expect(declined.status == 1)
        #expect(declined.errors == "Delete user zoe (Zoë Lefèvre, editor)? [y/N] intranet: user zoe was not deleted\n")
        #expect(await declinedTransport.requests.map(\.method) == [.get])
        #expect(deleted.status == 0 && deleted.output == "Deleted user bob.reader.\n")
        #expect(await transport.requests.map(\.method) == [.get, .delete])
        #expect(await transport.lastRequest?.path == "/users/13")
        #expect(unknown.status == 66)
        #expect(unknown.errors == "intranet: user nobody does not exist\n")
    }
}
