import Foundation
import HTTPTypes
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("IntranetRequestSigner")
struct IntranetRequestSignerTests {
    private static let fixedNow = Date(timeIntervalSince1970: 1_795_000_000.5)

    @Test("signs timestamp, method, prefixed path with query and body hash as API.md describes")
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

        _ = try await intranet.announcements.readAll()

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.xSignature] == "1002f4b9a62e6a731816e296f5235c2d9becf08e14ffb2d33abf162da832af80")
        #expect(sent.body == nil)
    }
}
