import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("MockTransport")
struct MockTransportTests {
    @Test("answers from the script in order and fails once it runs out")
    func scriptInOrder() async throws {
        let transport = MockTransport(script: [.status(.ok), .status(.accepted)])

        let first = try await transport.send(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/1"), body: nil)
        let second = try await transport.send(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/2"), body: nil)

        #expect(first.0.status == .ok)
        #expect(second.0.status == .accepted)
        await #expect(throws: MockTransportError.self) {
            _ = try await transport.send(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/3"), body: nil)
        }
        #expect(await transport.requests.map(\.path) == ["/1", "/2", "/3"])
    }

    @Test("answers from a closure that sees the recorded request")
    func closure() async throws {
        let transport = MockTransport { request in
            .text("{\"echo\":\"\(request.queryDictionary["q"] ?? "")\"}")
        }

        let response = try await RESTClient(transport: transport)
            .send(RESTRequest(.get, path: "/echo", query: [URLQueryItem(name: "q", value: "a b")]))

        #expect(String(decoding: response.body, as: UTF8.self) == #"{"echo":"a b"}"#)
        let sent = try #require(await transport.lastRequest)
        #expect(sent.request.path == "/echo?q=a%20b")
    }

    @Test("problem responses carry the problem media type, status and field errors")
    func problemBuilder() async throws {
        let transport = MockTransport(script: [.problem(.unprocessableContent, detail: "bad", fieldErrors: [("title", "empty")])])

        let (head, body) = try await transport.send(HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/"), body: nil)

        #expect(head.headerFields[.contentType] == "application/problem+json")
        #expect(try JSONValue(parsing: body) == [
            "type": "about:blank", "title": "Unprocessable Content", "status": 422, "detail": "bad",
            "errors": [["field": "title", "message": "empty"]],
        ])
    }
}
