import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepositoryTesting
import Testing

/// Accounts, login answers and clients for the session and user tests.
enum Accounts {
    static let editor = User(id: 3, username: "ed", displayName: "Ed", role: .editor)
    static let admin = User(id: 1, username: "root", displayName: "Admin", role: .admin)

    /// A `POST /login` answer as docs/api.md ("Accounts and sessions") shapes it.
    static func loginAnswer(token: String = "tok-1", expiresIn seconds: TimeInterval = 3600, user: User = editor) -> MockResponse {
        .json(
            LoginResponse(token: token, expiresAt: Date().addingTimeInterval(seconds), user: user),
            encoder: IntranetJSON.encoder())
    }

    /// A stored session for `user`.
    static func session(token: String = "tok-1", expiresIn seconds: TimeInterval = 3600, user: User = editor) -> Session {
        Session(token: token, expiresAt: Date().addingTimeInterval(seconds), user: user)
    }

    /// The 401 a server sends for a missing, bad or revoked token.
    static var unauthorized: MockResponse {
        .problem(.unauthorized, detail: "Sign in first.", headerFields: .of([("WWW-Authenticate", "Bearer")]))
    }
}

/// A client over a mock transport with a given session store, whose retries never sleep.
func makeIntranet(_ transport: MockTransport, store: any SessionStore) -> IntranetClient {
    IntranetClient(
        transport: transport, apiVersion: .v2_0,
        configuration: IntranetClientConfiguration(sleep: { _ in }, sessionStore: store))
}

/// Waits (up to about two seconds) until `condition` holds; returns whether it did.
func eventually(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<400 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}

/// A fresh directory under the temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sdk-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The POSIX permission bits of a file or directory.
    static func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let mode = try #require(attributes[.posixPermissions] as? NSNumber)
        return mode.intValue & 0o777
    }
}
