import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("RepositoryError intranet problem")
struct RepositoryErrorProblemTests {
    @Test("a 406 exposes the server's supported versions and request id header")
    func unsupportedVersion() async throws {
        let body = #"{"type":"about:blank","title":"Not Acceptable","status":406,"supportedVersions":["1.0","2.0"]}"#
        let transport = MockTransport(script: [
            .text(body, status: .notAcceptable, headerFields: .of([("X-Request-Id", "req-7")]), contentType: "application/problem+json")
        ])
        let intranet = makeIntranet(transport, version: .v2_0)

        let error = await #expect(throws: RepositoryError.self) { try await intranet.restClient.perform(RESTRequest(.get, path: "/announcements")) }

        #expect(error?.supportedVersions == ["1.0", "2.0"])
        #expect(error?.problem?.title == "Not Acceptable")
        #expect(error?.response?.headerFields[HTTPField.Name(HeaderName.requestID)!] == "req-7")
    }
}
