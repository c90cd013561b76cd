import Foundation
import IntranetAPI
import IntranetClient
import RESTRepositoryTesting
import Testing

@Suite("FileSessionStore")
struct FileSessionStoreTests {
    @Test("a saved session reads back equal, from a file of mode 0600 in a new directory of mode 0700")
    func roundTripAndPermissions() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("config/intranet/session.json")
        let store = FileSessionStore(fileURL: file)
        let session = Accounts.session(token: "tok-file")

        try await store.save(session)

        let loaded = try #require(await store.load())
        #expect(loaded.token == "tok-file")
        #expect(loaded.user == session.user)
        #expect(abs(loaded.expiresAt.timeIntervalSince(session.expiresAt)) < 0.001)
        #expect(try TemporaryDirectory.permissions(of: file) == 0o600)
        #expect(try TemporaryDirectory.permissions(of: file.deletingLastPathComponent()) == 0o700)
    }

    @Test("saving replaces an existing world-readable file by a 0600 one and leaves no temporary file")
    func atomicReplace() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("session.json")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o644]))
        let store = FileSessionStore(fileURL: file)

        try await store.save(Accounts.session(token: "first"))
        try await store.save(Accounts.session(token: "second"))

        #expect(await store.load()?.token == "second")
        #expect(try TemporaryDirectory.permissions(of: file) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == ["session.json"])
    }

    @Test("a corrupt, truncated or empty file reads as signed out", arguments: ["{not json", #"{"token":"t"}"#, ""])
    func corruptFile(content: String) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("session.json")
        try Data(content.utf8).write(to: file)
        let store = FileSessionStore(fileURL: file)

        let credentials = CredentialStore(store: store)

        #expect(await store.load() == nil)
        #expect(await credentials.state == .signedOut)
    }

    @Test("a missing file reads as signed out and clearing it succeeds")
    func missingFile() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let store = FileSessionStore(fileURL: temporary.url.appendingPathComponent("none/session.json"))

        try await store.clear()

        #expect(await store.load() == nil)
    }

    @Test("clear deletes the file")
    func clearDeletes() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent("session.json")
        let store = FileSessionStore(fileURL: file)
        try await store.save(Accounts.session())

        try await store.clear()

        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("each server URL gets its own file; a trailing slash or host case make no difference")
    func fileNamePerServer() throws {
        let local = try #require(URL(string: "http://127.0.0.1:8080"))
        let slash = try #require(URL(string: "http://127.0.0.1:8080/"))
        let other = try #require(URL(string: "http://127.0.0.1:8081"))
        let upper = try #require(URL(string: "https://Intranet.Example.com/api"))
        let lower = try #require(URL(string: "https://intranet.example.com/api"))

        let name = FileSessionStore.fileName(for: local)

        #expect(name.hasPrefix("127.0.0.1_8080-"))
        #expect(name.hasSuffix(".json"))
        #expect(name == FileSessionStore.fileName(for: slash))
        #expect(name != FileSessionStore.fileName(for: other))
        #expect(FileSessionStore.fileName(for: upper) == FileSessionStore.fileName(for: lower))
        #expect(FileSessionStore.fileName(for: lower).hasPrefix("intranet.example.com_https-"))
    }

    @Test("the default directory follows XDG_CONFIG_HOME, else ~/.config")
    func defaultDirectory() {
        let xdg = FileSessionStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/ada"])
        let home = FileSessionStore.defaultDirectory(environment: ["HOME": "/home/ada"])
        let relative = FileSessionStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/ada"])

        #expect(xdg.path == "/cfg/intranet/sessions")
        #expect(home.path == "/home/ada/.config/intranet/sessions")
        #expect(relative.path == "/home/ada/.config/intranet/sessions")
    }

    @Test("a second client on the same server's file starts signed in and sends the token")
    func staysSignedInAcrossClients() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let server = try #require(URL(string: "http://127.0.0.1:8080"))
        let first = MockTransport(script: [Accounts.loginAnswer(token: "persisted")])
        let second = MockTransport(script: [.json(Accounts.editor)])

        try await makeIntranet(first, store: FileSessionStore(serverURL: server, directory: temporary.url))
            .session.login(username: "ed", password: "pw")
        let later = makeIntranet(second, store: FileSessionStore(serverURL: server, directory: temporary.url))
        _ = try await later.session.me()

        #expect(await later.session.state == .signedIn(Accounts.editor))
        #expect(await second.lastRequest?.headerFields[.authorization] == "Bearer persisted")
    }
}
