import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import IntranetServer

/// Live streams served on the event loop (`EventStreamHandler`): which requests it serves,
/// and how a stream ends there — a client that stops reading, a client that goes away, a
/// server shutting down.
@Suite("Live streams on the event loop")
struct EventStreamHandlerTests {
    static let metricsToken = "metrics-token-0123456789"

    @Test("signed out, or with a session the server remembers, a stream is served on the event loop; with one it must look up, by the application; both get every event, and a client that goes away frees its stream at once")
    func whichStreamsAreServedHere() async throws {
        try await withTestServer(mode: .live, configure: { $0.metricsToken = Self.metricsToken }) { server, client in
            let port = try #require(client.port)
            let anonymous = try await EventStreamClient.open(port: port)
            #expect(try await anonymous.waitForHead().hasPrefix("HTTP/1.1 200"))
            server.sessions.forgetAll()
            let looked = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(TestUser.reader.token)"])
            #expect(try await looked.waitForHead().hasPrefix("HTTP/1.1 200"))
            let remembered = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(TestUser.reader.token)"])
            let head = try await remembered.waitForHead()
            #expect(head.hasPrefix("HTTP/1.1 200"))
            for field in ["Content-Type: text/event-stream; charset=utf-8", "Cache-Control: no-store", "X-Accel-Buffering: no", "X-Request-Id: ", "Date: "] {
                #expect(head.contains("\r\n\(field)"), "\(head)")
            }
            for stream in [anonymous, looked, remembered] { _ = try await stream.next() }

            let metrics = try await client.send(.get, "/metrics", headers: [.authorization: "Bearer \(Self.metricsToken)"], as: .anonymous)
            let detail = #"route="/events",method="GET",status="200""#
            #expect(metrics.text.contains(#"http_requests_total{\#(detail),answered="early"} 2"#), "\(metrics.text)")
            #expect(metrics.text.contains(#"http_requests_total{\#(detail),answered="application"} 1"#), "\(metrics.text)")

            let created = try await client.send(.post, "/announcements", json: #"{"title":"Everyone hears of it"}"#)
            let id = try #require(try created.object()["id"] as? Int)
            for stream in [anonymous, looked, remembered] {
                let event = try #require(try await stream.nextEvent())
                #expect(event.event == "announcement.created" && event.subject == id)
            }

            #expect(server.events.streamCount == 3)
            await anonymous.close()
            let deadline = ContinuousClock.now + .seconds(5)
            while server.events.streamCount > 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.events.streamCount == 2, "no write was needed to notice the client had gone")
            for stream in [looked, remembered] { await stream.close() }
        }
    }

    @Test("a client that stops reading gets what fitted in its queue, then one too-slow closing message, and the connection closes")
    func slowClients() async throws {
        try await withTestServer(mode: .live) { server, _ in
            let channel = try await Self.channel(server)
            try await Self.ask(channel, Self.streamRequest)
            #expect(try await Self.nextPart(of: channel).isHead)
            #expect(try await Self.nextPart(of: channel).text?.hasPrefix(": intranet events\n") == true)

            // The socket takes nothing more; three batches of changes (each less than half a
            // queue, which would be one reset instead) overflow the queue.
            channel.isWritable = false
            let database = server.database.database
            for _ in 0..<3 {
                let entries = (1...100).map { _ in ChangeLogEntry(id: 0, kind: .changed, subject: 2, at: Date()) }
                try await database.transaction { try await ChangeLog.append(entries, on: $0) }
                let newest = try await ChangeLog.bounds(on: database).newest
                let deadline = ContinuousClock.now + .seconds(10)
                while (server.events.slowestPosition ?? newest) < newest, server.events.streamCount > 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            #expect(try await channel.readOutbound(as: HTTPResponsePart.self) == nil, "nothing is written while the socket takes nothing")
            #expect(server.events.streamCount == 1, "the stream ends when its last message is written")

            channel.isWritable = true
            channel.pipeline.fireChannelWritabilityChanged()
            var messages: [String] = []
            while case .body(let chunk) = try await Self.nextPart(of: channel) { messages.append(String(buffer: chunk)) }
            #expect(messages.count == EventHub.Settings().queueLimit + 1, "\(messages.count)")
            #expect(messages.dropLast().allSatisfy { $0.contains("event: announcement.changed\n") })
            #expect(messages.last == "event: closing\ndata: {\"reason\":\"too-slow\"}\n\n")
            try await channel.closeFuture.get()
            #expect(server.events.streamCount == 0)
        }
    }

    @Test("a server shutting down ends an open stream with its closing message before closing the connection")
    func shutdown() async throws {
        try await withTestServer(mode: .live) { server, _ in
            let channel = try await Self.channel(server)
            try await Self.ask(channel, Self.streamRequest)
            #expect(try await Self.nextPart(of: channel).isHead)
            _ = try await Self.nextPart(of: channel)
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            let closing = try await Self.nextPart(of: channel).text
            #expect(closing?.hasPrefix("event: closing\nretry: ") == true)
            #expect(closing?.hasSuffix("data: {\"reason\":\"shutdown\"}\n\n") == true)
            guard case .end = try await Self.nextPart(of: channel) else {
                Issue.record("the answer does not end")
                return
            }
            try await channel.closeFuture.get()
            #expect(server.events.streamCount == 0)
        }
    }

    @Test("a stream asked for behind a request the application still answers goes to the application, in order; so do the requests it does not stream")
    func orderAndRefusals() async throws {
        try await withTestServer(mode: .live) { server, _ in
            let channel = try await Self.channel(server)
            let read = HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/announcements/2", headerFields: [:])
            try await Self.ask(channel, read)
            try await Self.ask(channel, Self.streamRequest)
            #expect(try await Self.passedHeads(channel).map(\.path) == ["/announcements/2", "/events"])
            #expect(server.events.streamCount == 0)

            for refused in [
                HTTPRequest(method: .head, scheme: nil, authority: "x", path: "/events", headerFields: [.accept: "text/event-stream"]),
                HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/events", headerFields: [.accept: "*/*"]),
                HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/events", headerFields: [
                    .accept: "text/event-stream", .lastEventID: String(repeating: "9", count: 65),
                ]),
                HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/events", headerFields: [
                    .accept: "text/event-stream", .authorization: "Bearer not-a-session",
                ]),
                HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/events/", headerFields: [.accept: "text/event-stream"]),
            ] {
                let fresh = try await Self.channel(server)
                try await Self.ask(fresh, refused)
                #expect(try await Self.passedHeads(fresh).count == 1, "\(refused)")
            }
            let closed = try await Self.channel(server, anonymousReading: false)
            try await Self.ask(closed, Self.streamRequest)
            #expect(try await Self.passedHeads(closed).count == 1, "signed out where reading needs a sign-in: the application refuses")
            #expect(server.events.streamCount == 0)
        }
    }

    // MARK: Helpers

    static let streamRequest = HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/events", headerFields: [.accept: "text/event-stream"])

    /// A connection's pipeline holding the handler over `server`'s hub and sessions; what the
    /// handler passes on stays readable inbound, what it writes outbound.
    static func channel(_ server: IntranetServer, anonymousReading: Bool = true) async throws -> NIOAsyncTestingChannel {
        let handler = EventStreamHandler(
            hub: server.events, sessions: server.sessions, allowsAnonymousReading: anonymousReading, logger: Logger(label: "test"))
        let channel = try await NIOAsyncTestingChannel(handler: handler)
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        return channel
    }

    static func ask(_ channel: NIOAsyncTestingChannel, _ request: HTTPRequest) async throws {
        try await channel.writeInbound(HTTPRequestPart.head(request))
        try await channel.writeInbound(HTTPRequestPart.end(nil))
    }

    /// The heads of the requests passed on to the application.
    static func passedHeads(_ channel: NIOAsyncTestingChannel) async throws -> [HTTPRequest] {
        var heads: [HTTPRequest] = []
        while let part = try await channel.readInbound(as: HTTPRequestPart.self) {
            if case .head(let head) = part { heads.append(head) }
        }
        return heads
    }

    /// The next part written to the client, waiting up to ten seconds for it.
    static func nextPart(of channel: NIOAsyncTestingChannel) async throws -> HTTPResponsePart {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let part = try await channel.readOutbound(as: HTTPResponsePart.self) { return part }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw CancellationError()
    }
}

private extension HTTPResponsePart {
    var isHead: Bool {
        if case .head(let head) = self { return head.status == .ok }
        return false
    }

    var text: String? {
        if case .body(let chunk) = self { return String(buffer: chunk) }
        return nil
    }
}
