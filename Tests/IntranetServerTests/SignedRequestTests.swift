import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Signed requests")
struct SignedRequestTests {
    @Test("the signature matches an independent HMAC-SHA256 computation", arguments: [
        ("GET", "/announcements?max=2", "", "839e663d2d362ff218dcf8efdcc252c3eccf431671aeecdb6d5e2d9fb566f13b"),
        ("POST", "/announcements", #"{"title":"Signed"}"#, "0d0e003db69719074d7714f27fdd31a7f90d980251436706ff9b000d415dd3da"),
    ])
    func vector(method: String, path: String, body: String, expected: String) {
        let signature = RequestSignature.compute(secret: "s3cret", timestamp: "1700000000000", method: method, pathWithQuery: path, body: Array(body.utf8))

        #expect(signature == expected)
        #expect(RequestSignature.isValid(expected, secret: "s3cret", timestamp: "1700000000000", method: method, pathWithQuery: path, body: Array(body.utf8)))
        #expect(!RequestSignature.isValid(expected, secret: "other", timestamp: "1700000000000", method: method, pathWithQuery: path, body: Array(body.utf8)))
    }

    @Test("with signing required, signed requests pass; missing, wrong, stale and replayed ones are 401", arguments: TestStorage.all)
    func required(storage: TestStorage) async throws {
        try await withTestServer(storage, configure: { $0.requiresSignature = true }) { server, client in
            let app = try await SigningAppRegistry(database: server.database.database).register(name: "Phone app 3.2")
            let good = signed(app, "GET", "/announcements?max=2")
            let body = #"{"title":"Signed"}"#

            let accepted = try await client.send(.get, "/announcements?max=2", headers: good)
            let replayed = try await client.send(.get, "/announcements?max=2", headers: good)
            let unsigned = try await client.send(.get, "/announcements")
            let otherPath = try await client.send(.get, "/announcements?max=3", headers: signed(app, "GET", "/announcements?max=2"))
            let stale = try await client.send(.get, "/announcements", headers: signed(app, "GET", "/announcements", at: Date(timeIntervalSinceNow: -301)))
            let unknownApp = try await client.send(.get, "/announcements", headers: signed(("app_nope", app.secret), "GET", "/announcements"))
            let post = try await client.send(.post, "/announcements", headers: signed(app, "POST", "/announcements", body: body), json: body)
            let tampered = try await client.send(.post, "/announcements", headers: signed(app, "POST", "/announcements", body: body), json: #"{"title":"Tampered"}"#)
            let health = try await client.send(.get, "/health")

            #expect(accepted.status == .ok)
            let acceptedItems = try accepted.objects()
            #expect(acceptedItems.count == 2)
            for refused in [replayed, unsigned, otherPath, stale, unknownApp, tampered] {
                #expect(refused.status == .unauthorized)
                #expect(refused.headers[.contentType] == "application/problem+json")
            }
            #expect(post.status == .created)
            #expect(health.status == .ok)
        }
    }

    @Test("without signing required, unsigned requests are served")
    func optional() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements")

            #expect(response.status == .ok)
        }
    }
}
