import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import IntranetServer

/// `PublicAnswerHandler` in a pipeline of its own, playing both the client (inbound request
/// parts) and the application (outbound answer parts).
@Suite("The early-answer handler, part by part")
struct PublicAnswerHandlerTests {
    let changes = ChangePipeline()
    let cache: ResponseCache
    let channel: EmbeddedChannel

    init() {
        cache = ResponseCache(changes: changes)
        channel = EmbeddedChannel(handler: PublicAnswerHandler(cache: cache, logger: Logger(label: "test")))
    }

    static func get(_ target: String = "/announcements/2", _ fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: nil, authority: "x", path: target, headerFields: fields)
    }

    static let publicHead = HTTPResponse(status: .ok, headerFields: [
        .contentType: "application/json", .cacheControl: "public, no-cache", .vary: "Accept, Accept-Version",
    ])

    /// Sends a whole request; returns the parts that reached the application.
    func request(_ request: HTTPRequest, body: String? = nil) throws -> [HTTPRequestPart] {
        try channel.writeInbound(HTTPRequestPart.head(request))
        if let body { try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: body))) }
        try channel.writeInbound(HTTPRequestPart.end(nil))
        var passed: [HTTPRequestPart] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) { passed.append(part) }
        return passed
    }

    /// Writes an answer as the application would, in the given body chunks.
    func answer(_ head: HTTPResponse = publicHead, chunks: [String]) throws {
        try channel.writeOutbound(HTTPResponsePart.head(head))
        for chunk in chunks { try channel.writeOutbound(HTTPResponsePart.body(ByteBuffer(string: chunk))) }
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    /// The parts that left for the client since the last call.
    func sent() throws -> [HTTPResponsePart] {
        var parts: [HTTPResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
        return parts
    }

    static func body(of parts: [HTTPResponsePart]) -> String {
        parts.reduce(into: "") { text, part in if case .body(let chunk) = part { text += String(buffer: chunk) } }
    }

    @Test("an answer written in several chunks is kept whole and given to the next identical request")
    func chunkedAnswer() throws {
        #expect(try request(Self.get()).count == 2)
        try answer(chunks: [#"{"id":2,"#, #""title":"Office move"}"#])
        _ = try sent()

        let passed = try request(Self.get())
        let early = try sent()

        #expect(passed.isEmpty)
        #expect(Self.body(of: early) == #"{"id":2,"title":"Office move"}"#)
        #expect(cache.publicAnswerHits == 1)
        guard case .head(let head) = early.first, case .end = early.last else {
            Issue.record("not a head, a body and an end: \(early)")
            return
        }
        #expect(head.headerFields[.cacheControl] == "public, no-cache")
        #expect(head.headerFields[.requestID] != nil && head.headerFields[.date] != nil)
    }

    @Test("an answer read before another connection's write is not kept")
    func writeElsewhereDuringTheRead() throws {
        _ = try request(Self.get())
        changes.receive(.announcements)  // a write committed through another connection
        try answer(chunks: ["old"])

        #expect(try request(Self.get()).count == 2)
        #expect(cache.publicAnswerHits == 0)
    }

    @Test("while the socket takes no writes, requests go to the application, which waits")
    func backpressure() throws {
        _ = try request(Self.get())
        try answer(chunks: ["{}"])
        channel.isWritable = false

        #expect(try request(Self.get()).count == 2)
        #expect(cache.publicAnswerHits == 0)
    }

    @Test("after a request asking to close the connection, nothing is answered early")
    func closeStopsEarlyAnswers() throws {
        _ = try request(Self.get())
        try answer(chunks: ["{}"])
        _ = try sent()

        #expect(try request(Self.get("/announcements/3", [.connection: "close"])).count == 2)
        try answer(HTTPResponse(status: .ok, headerFields: [.cacheControl: "public"]), chunks: ["{}"])
        #expect(try request(Self.get()).count == 2)
        #expect(cache.publicAnswerHits == 0)
    }

    @Test("a GET with a body, and the body of an answer that cannot be kept, go through untouched and nothing is kept")
    func bodiesPassThrough() throws {
        let passed = try request(Self.get("/announcements/2", [.contentLength: "5"]), body: "hello")
        try answer(chunks: ["{}"])
        let notKept = try request(Self.get("/announcements/4"))
        try answer(HTTPResponse(status: .notFound, headerFields: [.cacheControl: "public"]), chunks: ["missing"])
        let sentParts = try sent()

        #expect(passed.count == 3)
        #expect(notKept.count == 2)
        #expect(Self.body(of: sentParts) == "{}missing")
        #expect(try request(Self.get("/announcements/4")).count == 2)
        #expect(cache.count == 0)
    }

    @Test("an answer over the body limit is passed on whole and not kept")
    func oversizedAnswer() throws {
        _ = try request(Self.get())
        let half = String(repeating: "a", count: PublicAnswer.maxBodySize / 2 + 1)
        try answer(chunks: [half, half])

        #expect(Self.body(of: try sent()).utf8.count == 2 * half.utf8.count)
        #expect(try request(Self.get()).count == 2)
        #expect(cache.count == 0)
    }
}
