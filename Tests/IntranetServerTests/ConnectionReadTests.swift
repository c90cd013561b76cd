import Foundation
import Testing
@testable import IntranetServer

/// Large requests pipelined on one connection arrive whole and are answered in order (the
/// early answers' queue of requests passed on starts with room for two, and grows).
@Suite("Connections: large pipelined requests")
struct ConnectionReadTests {
    @Test("a 20 KB body, a 5 KB cookie header and a third request, pipelined on one connection, are each read whole and answered in order")
    func largeRequests() async throws {
        try await withTestServer(.sqlite, mode: .live) { _, client in
            let port = try #require(client.port)
            let cookies = (1...60).map { "c\($0)=\(String(repeating: "x", count: 90))" }.joined(separator: "; ")
            let text = String(repeating: "Twenty thousand bytes of body. ", count: 660)
            let body = try String(decoding: JSONEncoder().encode(["title": "Large", "body": text]), as: UTF8.self)
            let post = "POST /announcements HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(TestUser.editor.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let list = "GET /announcements HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nCookie: \(cookies)\r\n\r\n"
            let missing = "GET /announcements/999999 HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
            let answers = try await RawHTTP.exchange(port: port, requests: [post, list, missing])
            #expect(answers.map(\.statusLine) == ["HTTP/1.1 201 Created", "HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"])
            let created = try JSONSerialization.jsonObject(with: Data(try #require(answers.first).bodyBytes)) as? [String: Any]
            #expect(created?["body"] as? String == text, "the body arrived whole")
            #expect(answers.dropFirst().first?.body.contains("\"Large\"") == true, "the list after it shows the post")
        }
    }
}
