import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import IntranetTerminal

@Suite("Signing requests with --app-id and --app-secret")
struct SigningOptionTests {
    private let secret = "5ecret-never-shown"

    private func header(_ name: String, of request: RecordedRequest?) -> String? {
        request?.headerFields[HTTPField.Name(name)!]
    }

    @Test("the options sign every request: X-App-Id, X-Timestamp and X-Signature, never the secret")
    func optionsSign() async throws {
        let transport = MockTransport(script: [.text("[]"), .problem(.unauthorized)])

        let listed = await runIntranet(["announcements", "--app-id", "app_1", "--app-secret", secret, "--verbose"], transport: transport)
        let whoami = await runIntranet(["whoami", "--app-id", "app_1", "--app-secret", secret, "-v"], transport: transport)

        let requests = await transport.requests
        #expect(listed.status == 0)
        #expect(whoami.status == 77)
        #expect(requests.count == 2)
        for request in requests {
            #expect(header("X-App-Id", of: request) == "app_1")
            #expect(header("X-Timestamp", of: request)?.isEmpty == false)
            #expect(header("X-Signature", of: request)?.isEmpty == false)
            #expect(!request.headerFields.map(\.value).joined().contains(secret))
        }
        for text in [listed.output, listed.errors, whoami.output, whoami.errors] {
            #expect(!text.contains(secret))
        }
    }

    @Test("INTRANET_APP_ID and INTRANET_APP_SECRET sign too; without either nothing is signed")
    func environmentSigns() async {
        let signed = MockTransport(script: [.text("[]")])
        let unsigned = MockTransport(script: [.text("[]")])

        _ = await runIntranet(["announcements"], transport: signed, environment: ["INTRANET_APP_ID": "app_2", "INTRANET_APP_SECRET": secret])
        _ = await runIntranet(["announcements"], transport: unsigned)

        #expect(header("X-App-Id", of: await signed.lastRequest) == "app_2")
        #expect(header("X-Signature", of: await signed.lastRequest) != nil)
        #expect(header("X-App-Id", of: await unsigned.lastRequest) == nil)
        #expect(header("X-Signature", of: await unsigned.lastRequest) == nil)
    }

    @Test("only one of id and secret is a usage error before any request, and the secret is not echoed")
    func bothOrNeither() async {
        let message = "intranet: signing needs both --app-id and --app-secret (or INTRANET_APP_ID and INTRANET_APP_SECRET), or neither\n"
        let unused = MockTransport(script: [])

        let idOnly = await runIntranet(["announcements", "--app-id", "app_1"], transport: unused)
        let secretOnly = await runIntranet(["users", "list", "--app-secret", secret], transport: unused)
        let mixed = await runIntranet(["whoami", "--app-secret", secret], transport: unused, environment: ["INTRANET_APP_SECRET": "other"])

        #expect(idOnly.status == 64 && idOnly.errors == message)
        #expect(secretOnly.status == 64 && secretOnly.errors == message)
        #expect(mixed.status == 64 && mixed.errors == message)
        #expect(await unused.requests.isEmpty)
    }

    @Test("a 401 refusing the signature says so (77), and login does not call it a wrong password")
    func signatureRefusal() async {
        let refusal = MockResponse.problem(.unauthorized, detail: "The request signature does not match.",
                                           headerFields: [.wwwAuthenticate: #"Signature realm="intranet""#])
        let expected = "intranet: the server wants requests signed by a registered app (401: The request signature does not match.) — sign with --app-id and --app-secret, or INTRANET_APP_ID and INTRANET_APP_SECRET\n"

        let listed = await runIntranet(["announcements"], transport: MockTransport(script: [refusal]))
        let login = await runIntranet(["login", "--username", "zoe", "--password-stdin"], transport: MockTransport(script: [refusal]),
                                      terminal: CapturedTerminal(input: Data("s3cret".utf8)))

        #expect(listed.status == 77 && listed.errors == expected)
        #expect(login.status == 77 && login.errors == expected)
    }
}
