import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("IntranetClient")
struct IntranetClientTests {
    @Test("every request asks for the chosen version and JSON", arguments: APIVersion.allCases)
    func versionHeaders(version: APIVersion) async throws {
        let transport = MockTransport(script: [.json([AnnouncementV2.ListItem]())])
        let intranet = makeIntranet(transport, version: version)

        try await intranet.restClient.perform(RESTRequest(.get, path: "/announcements"))

        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.acceptVersion] == version.rawValue)
        #expect(sent.headerFields[.accept] == "application/json")
        #expect(sent.path == "/announcements")
        #expect(intranet.apiVersion == version)
    }

    @Test("the token provider's token is sent as a bearer token")
    func bearerToken() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let intranet = IntranetClient(
            transport: transport, apiVersion: .v2_0,
            configuration: IntranetClientConfiguration(tokenProvider: { "abc" }))

        try await intranet.announcements.deleteUnconditionally(id: 1)

        #expect(await transport.lastRequest?.headerFields[.authorization] == "Bearer abc")
    }

    @Test("reads are retried after 503 with the injected sleep, creates are not")
    func retries() async throws {
        let transport = MockTransport(script: [
            .status(.serviceUnavailable), .json(AnnouncementV1.Detail(id: 1, title: "A", body: nil)),
            .status(.serviceUnavailable),
        ])
        let intranet = makeIntranet(transport, version: .v1_0)

        let read = try await intranet.announcements.read(id: 1)
        let error = await #expect(throws: RepositoryError.self) {
            try await intranet.announcements.create(AnnouncementDraft(title: "B"))
        }

        #expect(read.title == "A")
        #expect(error?.statusCode == 503)
        #expect(await transport.requests.map(\.method) == [.get, .get, .post])
    }

    @Test("the signer sees each request and its fields are sent")
    func signer() async throws {
        let transport = MockTransport(script: [.status(.noContent)])
        let intranet = IntranetClient(
            transport: transport,
            configuration: IntranetClientConfiguration(signer: { request, _ in
                request.headerFields[.xSignature] = "signed \(request.path ?? "")"
            }))

        try await intranet.announcements.deleteUnconditionally(id: 5)

        #expect(await transport.lastRequest?.headerFields[.xSignature] == "signed /announcements/5")
    }

    @Test("a URL-based client keeps the base URL's path for every request")
    func baseURLClient() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8081/intranet"))
        let transport = URLSessionTransport(configuration: .init(baseURL: base))

        let request = try transport.makeURLRequest(RESTRequest(.get, path: "/announcements/2").httpRequest, body: nil)

        #expect(request.url?.absoluteString == "http://127.0.0.1:8081/intranet/announcements/2")
        #expect(IntranetClient(baseURL: base, apiVersion: .v1_0).apiVersion == .v1_0)
    }
}
