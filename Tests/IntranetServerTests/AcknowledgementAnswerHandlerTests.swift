import Foundation
import HTTPTypes
import IntranetAPI
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import IntranetServer

/// `AcknowledgementAnswerHandler` in a pipeline of its own, the batches' answers held back by the
/// test: what reaches the application, what is written, and in which order.
@Suite("The acknowledgement handler, part by part")
struct AcknowledgementAnswerHandlerTests {
    /// What reached the application: request parts and events, in order.
    final class Application: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPRequestPart
        enum Seen: Equatable {
            case head(HTTPRequest.Method, String), body, end, quiesce, inputClosed
        }
        var seen: [Seen] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): seen.append(.head(head.method, head.path ?? ""))
            case .body: seen.append(.body)
            case .end: seen.append(.end)
            }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelShouldQuiesceEvent { seen.append(.quiesce) }
            if case .inputClosed? = event as? ChannelEvent { seen.append(.inputClosed) }
        }
    }

    let application = Application()
    let channel: EmbeddedChannel
    /// The completions of the requests handed to the batches, oldest first.
    let waiting = NIOLockedValueBox<[(EarlyAcknowledgements.Request, EarlyAcknowledgements.Completion)]>([])

    init() throws {
        let waiting = waiting
        let handler = AcknowledgementAnswerHandler(
            submit: { request, completion in waiting.withLockedValue { $0.append((request, completion)) } }, logger: Logger(label: "test"))
        channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([handler, application])
    }

    static func put(_ id: Int) -> HTTPRequest {
        HTTPRequest(method: .put, scheme: nil, authority: "x", path: "/announcements/\(id)/acknowledgement", headerFields: [.authorization: "Bearer abc"])
    }

    func send(_ request: HTTPRequest) throws {
        try channel.writeInbound(HTTPRequestPart.head(request))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    /// Calls back the oldest request waiting with `answer`, and lets the event loop run.
    func complete(with answer: EarlyAcknowledgements.Answer) throws {
        let first = try #require(waiting.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() })
        first.1(.success(answer))
        channel.embeddedEventLoop.run()
    }

    func written() throws -> [HTTPResponsePart] {
        var parts: [HTTPResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
        return parts
    }

    static let receipt = AcknowledgementReceipt(round: 2, acknowledgedAt: Date(timeIntervalSince1970: 1_764_288_000.123))

    @Test("an acknowledgement given is answered here; its end, and nothing else, is kept from the application")
    func answeredHere() throws {
        try send(Self.put(12))
        #expect(waiting.withLockedValue { $0.map(\.0.announcementID) } == [12])
        #expect(try written().isEmpty)
        try complete(with: .given(Self.receipt, userID: 3))
        let parts = try written()
        guard parts.count == 3, case .head(let head) = parts[0], case .body(let body) = parts[1], case .end = parts[2] else {
            Issue.record("not a head, a body and an end: \(parts)")
            return
        }
        #expect(head.status == .ok && head.headerFields[.apiVersion] == "3.0" && head.headerFields[.cacheControl] == "no-store")
        #expect(String(buffer: body) == #"{"acknowledgedAt":"2025-11-28T00:00:00.123Z","round":2}"#)
        #expect(application.seen.isEmpty)
    }

    @Test("while one is in flight, the requests behind it, the end of input and a shutdown's quiesce wait; handed to the application, it goes first and they follow in order")
    func heldInOrder() throws {
        try send(Self.put(12))
        try send(HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/announcements", headerFields: [:]))
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(application.seen.isEmpty)
        try complete(with: .toApplication)
        #expect(application.seen == [
            .head(.put, "/announcements/12/acknowledgement"), .end, .head(.get, "/announcements"), .end, .inputClosed, .quiesce,
        ])
        #expect(try written().isEmpty, "the application answers both")
    }

    @Test("a second acknowledgement behind the first is taken once the first is answered; a shutdown's quiesce waits for it; after the quiesce none is taken")
    func oneAfterAnother() throws {
        try send(Self.put(12))
        try send(Self.put(13))
        try complete(with: .given(Self.receipt, userID: 3))
        #expect(waiting.withLockedValue { $0.map(\.0.announcementID) } == [13])
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        try send(Self.put(14))
        #expect(application.seen.isEmpty)
        try complete(with: .given(Self.receipt, userID: 3))
        #expect(try written().count == 6, "both answered here")
        #expect(application.seen == [.quiesce, .head(.put, "/announcements/14/acknowledgement"), .end])
        #expect(waiting.withLockedValue { $0.isEmpty })
    }

    @Test("after the application answers, the next acknowledgement is taken again; while it answers, none is")
    func afterTheApplication() throws {
        try send(HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/announcements", headerFields: [:]))
        try send(Self.put(12))
        #expect(waiting.withLockedValue { $0.count } == 0, "the application is answering the read")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try send(Self.put(13))
        #expect(waiting.withLockedValue { $0.map(\.0.announcementID) } == [13])
    }
}
