import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOConcurrencyHelpers
import SQLKit
import Testing
@testable import IntranetServer

@Suite("Accounts and sessions")
struct AccountTests {
    private func login(_ client: some TestClientProtocol, _ username: String, _ password: String = TestUser.password) async throws -> TestResponse {
        try await client.send(.post, "/login", json: Body.object(["username": Body.string(username), "password": Body.string(password)]), as: .anonymous)
    }

    @Test("login answers a token, its expiry and the user; the token works until logout, then stops at once", arguments: TestStorage.all)
    func loginLogout(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let response = try await login(client, "EDITOR")

            #expect(response.status == .ok)
            let body = try response.object()
            let token = try #require(body["token"] as? String)
            #expect(token.count >= 43)
            #expect(body["expiresAt"] is String)
            #expect((body["user"] as? [String: Any])?["username"] as? String == "editor")
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            let me = try await client.send(.get, "/users/me", headers: bearer)
            #expect(try me.object()["role"] as? String == "editor")
            #expect(try await client.send(.post, "/logout", headers: bearer).status == .noContent)
            let after = try await client.send(.get, "/users/me", headers: bearer)
            #expect(after.status == .unauthorized)
            #expect(after.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        }
    }

    @Test("an unknown user and a wrong password get the same 401")
    func sameMessage() async throws {
        try await withTestServer { _, client in
            let unknown = try await login(client, "nobody")
            let wrong = try await login(client, "editor", "wrong password!")

            #expect(unknown.status == .unauthorized)
            #expect(wrong.status == .unauthorized)
            #expect(try unknown.object()["detail"] as? String == (try wrong.object()["detail"] as? String))
        }
    }

    @Test("five failures for one username lock it for 15 minutes with Retry-After, even with the right password", arguments: TestStorage.all)
    func lockout(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            for _ in 1...5 {
                #expect(try await login(client, "Reader", "nope nope nope").status == .unauthorized)
            }

            let locked = try await login(client, "reader")
            let other = try await login(client, "editor")

            #expect(locked.status == .tooManyRequests)
            let retry = try #require(locked.headers[.retryAfter].flatMap(Int.init))
            #expect((800...900).contains(retry))
            #expect(other.status == .ok)
        }
    }

    @Test("a token works until it expires, and not a second after", arguments: TestStorage.all)
    func expired(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let sql = try #require(server.database.database as? any SQLDatabase)
            try await sql.raw("UPDATE sessions SET expires_at = \(bind: Date(timeIntervalSinceNow: 60)) WHERE user_id = \(bind: TestUser.otherReader.id)").run()
            try await sql.raw("UPDATE sessions SET expires_at = \(bind: Date(timeIntervalSinceNow: -1)) WHERE user_id = \(bind: TestUser.reader.id)").run()
            let beforeExpiry = try await client.send(.get, "/users/me", as: .user(.otherReader))
            let afterExpiry = try await client.send(.get, "/users/me", as: .user(.reader))

            #expect(beforeExpiry.status == .ok)
            #expect(try beforeExpiry.object()["username"] as? String == "otherReader")
            #expect(afterExpiry.status == .unauthorized)
        }
    }

    @Test("a token the server has just accepted stops at its expiry, not a moment later")
    func rememberedTokenExpires() async throws {
        let clock = NIOLockedValueBox(Date())
        try await withTestServer(configure: { configuration in
            configuration.sessionLifetime = 60
            configuration.now = { clock.withLockedValue { $0 } }
        }) { _, client in
            let login = try await login(client, "editor")
            let token = try #require(try login.object()["token"] as? String)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            clock.withLockedValue { $0 += 59.9 }
            let justBefore = try await client.send(.get, "/users/me", headers: bearer)
            clock.withLockedValue { $0 += 0.2 }
            let justAfter = try await client.send(.get, "/users/me", headers: bearer)

            #expect(justBefore.status == .ok)
            #expect(justAfter.status == .unauthorized)
        }
    }

    @Test("a malformed or unknown token is 401 even on a public read")
    func badTokens() async throws {
        try await withTestServer { _, client in
            for header in ["Bearer nope", "Basic dXNlcjpwYXNz", "Bearer", "token"] {
                let response = try await client.send(.get, "/announcements", headers: [.authorization: header])
                #expect(response.status == .unauthorized, "\(header)")
            }
        }
    }

    @Test("stored rows hold no password or token in the clear")
    func storedHashes() async throws {
        try await withTestServer { server, client in
            let token = try #require(try await login(client, "admin").object()["token"] as? String)
            let sql = try #require(server.database.database as? any SQLDatabase)

            let users = try await sql.raw("SELECT * FROM users").all()
            let sessions = try await sql.raw("SELECT * FROM sessions").all()
            let dump = (users + sessions).map { row in
                row.allColumns.map { column in (try? row.decode(column: column, as: String.self)) ?? "" }.joined(separator: "|")
            }.joined(separator: "\n")

            #expect(!dump.contains(TestUser.password))
            #expect(!dump.contains(token))
            #expect(dump.contains("$2b$"))
        }
    }

    @Test("logins, passwords and tokens never appear in the log, even at trace level")
    func nothingSecretLogged() async throws {
        let (logger, log) = RecordingLogHandler.logger(level: .trace)
        try await withTestServer(logger: logger) { _, client in
            let token = try #require(try await login(client, "admin").object()["token"] as? String)
            _ = try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(token)"])
            _ = try await login(client, "admin", "a wrong secret")
            _ = try await client.send(.post, "/users", json: #"{"username":"zed","role":"reader","password":"zeds secret pw"}"#, as: .admin)

            let text = log.all.joined(separator: "\n")
            #expect(!log.all.isEmpty)
            for secret in [TestUser.password, token, "a wrong secret", "zeds secret pw"] {
                #expect(!text.contains(secret), "log contains \(secret)")
            }
        }
    }
}
