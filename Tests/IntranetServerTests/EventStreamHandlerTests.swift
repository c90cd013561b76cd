import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
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
            for field in [
                "Content-Type: text/event-stream; charset=utf-8", "Cache-Control: no-store", "X-Accel-Buffering: no", "X-Request-Id: ", "Date: ",
                "Connection: close",
            ] {
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

    @Test("a client that stops reading gets what fitted in its queue, then one too-slow closing message, and the connection closes; one that still reads nothing is cut off")
    func slowClients() async throws {
        try await withTestServer(mode: .live) { server, _ in
            let slow = try await Self.channel(server)
            let stalled = try await Self.channel(server)
            for channel in [slow, stalled] {
                try await Self.ask(channel, Self.streamRequest)
                #expect(try await Self.nextPart(of: channel).isHead)
                #expect(try await Self.nextPart(of: channel).text?.hasPrefix(": intranet events\n") == true)
                // The socket takes nothing more.
                channel.isWritable = false
            }

            // Three batches of changes (each less than half a queue, which would be one reset
            // instead), each handed on before the next, overflow the queues.
            let database = server.database.database
            for _ in 0..<3 {
                let entries = (1...100).map { _ in ChangeLogEntry(id: 0, kind: .changed, subject: 2, at: Date()) }
                try await database.transaction { try await ChangeLog.append(entries, on: $0) }
                let newest = try await ChangeLog.bounds(on: database).newest
                let deadline = ContinuousClock.now + .seconds(20)
                while (server.events.slowestPosition ?? newest) < newest, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                try #require((server.events.slowestPosition ?? newest) >= newest, "the hub handed the batch on")
            }
            #expect(try await slow.readOutbound(as: HTTPResponsePart.self) == nil, "nothing is written while the socket takes nothing")

            // The stalled client is cut off after its grace (the test's clock moves at once);
            // the other reads everything then.
            await stalled.testingEventLoop.advanceTime(by: EventStreamHandler.slowClientGrace)
            try await Self.waitUntilClosed(stalled)
            #expect(server.events.streamCount == 1)
            slow.isWritable = true
            slow.pipeline.fireChannelWritabilityChanged()
            var messages: [String] = []
            while case .body(let chunk) = try await Self.nextPart(of: slow) { messages.append(String(buffer: chunk)) }
            #expect(messages.count == EventHub.Settings().queueLimit + 1, "\(messages.count)")
            // (A heartbeat may take a place: a comment.)
            #expect(messages.dropLast().allSatisfy { $0.contains("event: announcement.changed\n") || $0.hasPrefix(":") })
            #expect(messages.last == "event: closing\ndata: {\"reason\":\"too-slow\"}\n\n")
            try await Self.waitUntilClosed(slow)
            #expect(server.events.streamCount == 0)
        }
    }

    @Test("when the stream cannot be opened (the change log unreadable), the application answers with its error, and the next stream opens")
    func failedOpening() async throws {
        try await withTestServer(mode: .live) { server, client in
            let port = try #require(client.port)
            let sql = try #require(server.database.database as? any SQLDatabase)
            try await sql.raw("ALTER TABLE change_revisions RENAME TO change_revisions_away").run()
            let refused = try await EventStreamClient.open(port: port)
            #expect(try await refused.waitForHead(timeout: .seconds(10)).hasPrefix("HTTP/1.1 500"))
            await refused.close()
            try await sql.raw("ALTER TABLE change_revisions_away RENAME TO change_revisions").run()
            let opened = try await EventStreamClient.open(port: port)
            #expect(try await opened.waitForHead().hasPrefix("HTTP/1.1 200"))
            await opened.close()
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
            try await Self.waitUntilClosed(channel)
            #expect(server.events.streamCount == 0)
        }
    }

    @Test("garbage a client sends after its stream's request closes the connection, and nothing is written into the stream")
    func unreadableRequests() async throws {
        try await withTestServer(mode: .live) { server, _ in
            let channel = try await Self.channel(server)
            try await Self.ask(channel, Self.streamRequest)
            #expect(try await Self.nextPart(of: channel).isHead)
            _ = try await Self.nextPart(of: channel)
            // (What the HTTP decoder raises for bytes that are not a request.)
            struct Unreadable: Error {}
            channel.pipeline.fireErrorCaught(Unreadable())
            try await Self.waitUntilClosed(channel)
            #expect(try await channel.readOutbound(as: HTTPResponsePart.self) == nil)
            #expect(server.events.streamCount == 0)
        }
    }

    @Test("a stream asked for behind a request the application still answers goes to the application, in order, and is served here once it has answered; so do the requests it does not stream")
    func orderAndRefusals() async throws {
        try await withTestServer(mode: .live) { server, _ in
            let channel = try await Self.channel(server)
            let read = HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/announcements/2", headerFields: [:])
            try await Self.ask(channel, read)
            try await Self.ask(channel, Self.streamRequest)
            #expect(try await Self.passedHeads(channel).map(\.path) == ["/announcements/2", "/events"])
            #expect(server.events.streamCount == 0)
            // Once the application has answered both, the next stream is served here.
            for _ in 0..<2 {
                try await channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
                try await channel.writeOutbound(HTTPResponsePart.end(nil))
            }
            try await Self.ask(channel, Self.streamRequest)
            for _ in 0..<4 { _ = try await Self.nextPart(of: channel) }
            #expect(try await Self.nextPart(of: channel).isHead)
            #expect(try await Self.passedHeads(channel).isEmpty)
            #expect(server.events.streamCount == 1)
            try await channel.close()
            #expect(server.events.streamCount == 0)

            // Not after a request that asked to close the connection.
            let closing = try await Self.channel(server)
            try await Self.ask(closing, HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/announcements/2", headerFields: [.connection: "close"]))
            try await closing.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try await closing.writeOutbound(HTTPResponsePart.end(nil))
            try await Self.ask(closing, Self.streamRequest)
            #expect(try await Self.passedHeads(closing).count == 2)

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
                HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/events", headerFields: [
                    .accept: "text/event-stream", .contentLength: "3",
                ]),
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
        let (hub, sessions) = (server.events, server.sessions)
        let channel = try await NIOAsyncTestingChannel { channel in
            try channel.pipeline.syncOperations.addHandler(
                EventStreamHandler(hub: hub, sessions: sessions, allowsAnonymousReading: anonymousReading, logger: Logger(label: "test")))
        }
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

    /// Waits up to ten seconds for the connection to close.
    static func waitUntilClosed(_ channel: NIOAsyncTestingChannel) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while channel.isActive, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try #require(!channel.isActive, "the connection is still open")
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
