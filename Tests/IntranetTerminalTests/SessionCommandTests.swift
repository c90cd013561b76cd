import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import IntranetTerminal

@Suite("Signing in and out")
struct SessionCommandTests {
    private let loginAnswer = MockResponse.text(
        #"{"token":"t0k3n","expiresAt":"2030-01-01T00:00:00.000Z","user":{"id":2,"username":"zoe","displayName":"Zoë Lefèvre","role":"editor"}}"#)

    private func temporaryHome() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("intranet-session-\(UUID().uuidString)")
    }

    @Test("login --password-stdin posts the credentials, keeps the session, and later requests carry its token")
    func loginKeepsSession() async throws {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_CONFIG_HOME": home.path]
        let transport = MockTransport(script: [loginAnswer, .status(.noContent)])

        let login = await runIntranet(["login", "--username", "zoe", "--password-stdin"], transport: transport,
                                      terminal: CapturedTerminal(input: Data("s3cret\n".utf8)), environment: environment)
        let delete = await runIntranet(["announcements", "delete", "7", "--yes"], transport: transport, environment: environment)

        let requests = await transport.requests
        #expect(login.status == 0)
        #expect(login.output == "Signed in to http://127.0.0.1:8080 as Zoë Lefèvre (zoe, editor).\n")
        #expect(requests[0].request.path == "/login")
        #expect(requests[0].bodyText?.contains(#""password":"s3cret""#) == true)
        #expect(delete.status == 0)
        #expect(requests[1].headerFields[.authorization] == "Bearer t0k3n")
    }

    @Test("the session file is per server in the config directory, mode 0600 in a 0700 directory")
    func sessionFileMode() async throws {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = "http://intranet.example:9000"

        let login = await runIntranet(["login", "--username", "zoe", "--password-stdin", "--server", server],
                                      transport: MockTransport(script: [loginAnswer]),
                                      terminal: CapturedTerminal(input: Data("s3cret\n".utf8)), environment: ["XDG_CONFIG_HOME": home.path])

        let directory = home.appendingPathComponent("intranet/sessions")
        let file = directory.appendingPathComponent(FileSessionStore.fileName(for: try #require(URL(string: server))))
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        let contents = try String(contentsOf: file, encoding: .utf8)
        #expect(login.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [file.lastPathComponent])
        #expect(fileMode == 0o600)
        #expect(directoryMode == 0o700)
        #expect(contents.contains("t0k3n"))
        #expect(!contents.contains("s3cret"))
    }

    @Test("on a terminal login asks for the user name and the password")
    func loginAsks() async throws {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let transport = MockTransport(script: [loginAnswer])

        let result = await runIntranet(["login"], transport: transport, terminal: CapturedTerminal(lines: ["zoe", "s3cret"]),
                                       isInputTerminal: true, environment: ["XDG_CONFIG_HOME": home.path])

        #expect(result.status == 0)
        #expect(result.errors == "Username: Password: ")
        #expect(await transport.lastRequest?.bodyText?.contains(#""username":"zoe""#) == true)
    }

    @Test("a wrong password is status 77; no terminal and no --password-stdin is a usage error before any request")
    func loginFailures() async {
        let wrong = await runIntranet(["login", "--username", "zoe", "--password-stdin"],
                                      transport: MockTransport(script: [.problem(.unauthorized)]),
                                      terminal: CapturedTerminal(input: Data("nope".utf8)))
        let unused = MockTransport(script: [])
        let noTerminal = await runIntranet(["login", "--username", "zoe"], transport: unused)

        #expect(wrong.status == 77)
        #expect(wrong.errors == "intranet: wrong user name or password\n")
        #expect(noTerminal.status == 64)
        #expect(noTerminal.errors == "intranet: no terminal to ask for the password on; pipe it in with --password-stdin\n")
        #expect(await unused.requests.isEmpty)
    }

    @Test("logout without a session says so; INTRANET_SERVER names the server and --server wins over it")
    func logoutAndServerChoice() async {
        let logout = await runIntranet(["logout"])
        let fromEnvironment = await runIntranet(["announcements", "-v"], transport: MockTransport(script: [.text("[]")]),
                                                environment: ["INTRANET_SERVER": "http://intranet.example:9000"])
        let fromFlag = await runIntranet(["announcements", "-v", "--server", "http://other.example"], transport: MockTransport(script: [.text("[]")]),
                                         environment: ["INTRANET_SERVER": "http://intranet.example:9000"])

        #expect(logout.output == "Not signed in.\n")
        #expect(fromEnvironment.errors.hasPrefix("GET http://intranet.example:9000/announcements?page=1&per_page=10 "))
        #expect(fromFlag.errors.hasPrefix("GET http://other.example/announcements?page=1&per_page=10 "))
    }
}
