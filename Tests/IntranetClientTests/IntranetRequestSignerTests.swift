import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("IntranetRequestSigner")
struct IntranetRequestSignerTests {
    private static let fixedNow = Date(timeIntervalSince1970: 1_795_000_000.5)

    @Test("signs timestamp, method, prefixed path with query and body hash as docs/api.md describes")
    func knownSignature() throws {
        let signer = IntranetRequestSigner(appID: "ios", secret: Data("s3cret".utf8), pathPrefix: "/api", now: { Self.fixedNow })
        var request = RESTRequest(.post, path: "/announcements", query: [URLQueryItem(name: "x", value: "1")]).httpRequest

        signer.sign(&request, body: Data(#"{"title":"A"}"#.utf8))

        #expect(request.headerFields[IntranetRequestSigner.appIDField] == "ios")
        #expect(request.headerFields[IntranetRequestSigner.timestampField] == "1795000000500")
        // Expected values computed independently with Python's hmac and hashlib modules.
        #expect(request.headerFields[.xSignature] == "294ffcdb9ad2cdd2c86cd476e4f739022523ea10bb78ac33f54228d872af2a07")
    }

    @Test("a client with the signer signs every request, a GET with the empty-body hash")
    func clientSignsRequests() async throws {
        let transport = MockTransport(script: [.json([String]())])
        let signer = IntranetRequestSigner(appID: "ios", secret: Data("s3cret".utf8), now: { Self.fixedNow })
        let intranet = IntranetClient(transport: transport, configuration: IntranetClientConfiguration(signer: signer.sign))

        try await intranet.restClient.perform(RESTRequest(.get, path: "/announcements"))

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.xSignature] == "1002f4b9a62e6a731816e296f5235c2d9becf08e14ffb2d33abf162da832af80")
        #expect(sent.body == nil)
    }

    @Test("the signed path is the wire path: base path and query percent-encoded, signature matches Python's")
    func percentEncodedWirePath() async throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080/intra%20net/"))
        let prefix = IntranetRequestSigner.pathPrefix(for: base)
        let signer = IntranetRequestSigner(key: AppSigningKey(appID: "cli", secret: "k3y-\u{e9}"), pathPrefix: prefix, now: { Self.fixedNow })
        let transport = MockTransport(script: [.status(.noContent)])
        let intranet = IntranetClient(transport: transport, configuration: IntranetClientConfiguration(signer: signer.sign))
        let request = RESTRequest(.get, path: "/announcements", query: [
            URLQueryItem(name: "q", value: "caf\u{e9} & co"), URLQueryItem(name: "sort", value: "title"),
        ])

        try await intranet.restClient.perform(request)
        let wire = try URLSessionTransport(configuration: .init(baseURL: base)).makeURLRequest(request.httpRequest, body: nil)
        let wireURL = try #require(wire.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) })

        #expect(prefix == "/intra%20net")
        #expect(prefix + request.pathWithQuery == "/intra%20net/announcements?q=caf%C3%A9%20%26%20co&sort=title")
        #expect(wireURL.percentEncodedPath + "?" + (wireURL.percentEncodedQuery ?? "") == prefix + request.pathWithQuery)
        // python3: hmac.new("k3y-é".encode(), msg.encode(), hashlib.sha256).hexdigest()
        #expect(await transport.lastRequest?.headerFields[.xSignature] == "e26936a72aefabc52c549e88bbc469456340d03a9ce57f3e9259e4439882fb1f")
    }

    @Test("a GET signs the empty-body hash even when handed a body, since none is sent")
    func getIgnoresBody() {
        let signer = IntranetRequestSigner(appID: "ios", secret: Data("s3cret".utf8), now: { Self.fixedNow })
        var request = RESTRequest(.get, path: "/announcements").httpRequest

        signer.sign(&request, body: Data("not sent".utf8))

        #expect(request.headerFields[.xSignature] == "1002f4b9a62e6a731816e296f5235c2d9becf08e14ffb2d33abf162da832af80")
    }

    @Test("a users PATCH is signed over its exact JSON body, next to the bearer token")
    func signedPatch() async throws {
        let signer = IntranetRequestSigner(appID: "ios", secret: Data("s3cret".utf8), now: { Self.fixedNow })
        let transport = MockTransport(script: [.json(User(id: 7, username: "u", displayName: "U", role: .editor))])
        let store = InMemorySessionStore(session: Session(token: "adm", expiresAt: .distantFuture, user: User(id: 1, username: "a", displayName: "A", role: .admin)))
        let intranet = IntranetClient(transport: transport, configuration: IntranetClientConfiguration(signer: signer.sign, sessionStore: store))

        _ = try await intranet.users.setRole(.editor, id: 7)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.bodyText == #"{"role":"editor"}"#)
        #expect(sent.headerFields[.authorization] == "Bearer adm")
        // Python: "1795000000500\nPATCH\n/users/7\n" + sha256(body), HMAC key "s3cret".
        #expect(sent.headerFields[.xSignature] == "f92a31bf17d037d99f2faacc3d287375f0b0fe373349074e8ecb0e131d0f46b5")
    }

    @Test("a configuration's signing key signs every request with the app id and a current timestamp")
    func signingKeyConfiguration() async throws {
        let key = AppSigningKey(appID: "cli", secret: "k3y")
        let transport = MockTransport(script: [.json([AnnouncementV2.ListItem]())])
        let intranet = IntranetClient(transport: transport, configuration: IntranetClientConfiguration(signingKey: key))
        let before = Date()

        try await intranet.restClient.perform(RESTRequest(.get, path: "/announcements"))

        let sent = try #require(await transport.lastRequest)
        let timestamp = try #require(sent.headerFields[IntranetRequestSigner.timestampField].flatMap { Int64($0) })
        let signedAt = Date(timeIntervalSince1970: Double(timestamp) / 1000)
        #expect(sent.headerFields[IntranetRequestSigner.appIDField] == "cli")
        #expect(abs(signedAt.timeIntervalSince(before)) < 5)
        var expected = sent.request
        IntranetRequestSigner(key: key, now: { signedAt }).sign(&expected, body: nil)
        #expect(sent.headerFields[.xSignature] == expected.headerFields[.xSignature])
        #expect(!"\(key)".contains("k3y\""))
    }

    @Test("the path prefix of a base URL drops trailing slashes and is empty without a path")
    func pathPrefixes() throws {
        let plain = try #require(URL(string: "http://127.0.0.1:8080"))
        let slash = try #require(URL(string: "http://127.0.0.1:8080/"))
        let nested = try #require(URL(string: "https://h.example/a/b/"))

        #expect(IntranetRequestSigner.pathPrefix(for: plain) == "")
        #expect(IntranetRequestSigner.pathPrefix(for: slash) == "")
        #expect(IntranetRequestSigner.pathPrefix(for: nested) == "/a/b")
    }
}
