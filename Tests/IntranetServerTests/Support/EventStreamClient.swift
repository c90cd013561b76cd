import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A live stream (`GET /events`) read off a real socket, message by message, as a browser's
/// `EventSource` would read it: the HTTP head, then the chunked body cut into messages at each
/// blank line.
final class EventStreamClient: Sendable {
    /// One message: its fields (`id`, `event`, `data`, `retry`) and comment lines.
    struct Message: Sendable, CustomStringConvertible {
        var id: String?
        var event: String?
        var data: String?
        var retry: Int?
        var comments: [String] = []

        /// The data line parsed as a JSON object.
        var object: [String: Any]? {
            data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        /// The subject id of an event's data.
        var subject: Int? { object?["id"] as? Int }

        var description: String { "[id \(id ?? "-") \(event ?? "-") \(data ?? "")\(comments.isEmpty ? "" : " :\(comments)")]" }
    }

    private struct State {
        var raw: [UInt8] = []
        var head: String?
        var body: [UInt8] = []
        var messages: [Message] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    private let channel: any Channel

    /// Opens a stream to the server on `port` with the given extra header lines.
    static func open(port: Int, headers: [String: String] = [:], path: String = "/events") async throws -> EventStreamClient {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        let client = EventStreamClient(channel: channel)
        collector.client = client
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if headers["Accept"] == nil { request += "Accept: text/event-stream\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        try await channel.writeAndFlush(ByteBuffer(string: request + "\r\n")).get()
        return client
    }

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// The answer's status line and headers, once they arrived.
    var head: String? { state.withLock { $0.head } }

    /// Whether the answer ended (its last chunk came) or the server closed the connection.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Waits for the head (up to `timeout`).
    func waitForHead(timeout: Duration = .seconds(10)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let head { return head }
            if isClosed { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try head ?? { throw StreamFailure(description: "no head within \(timeout)") }()
    }

    /// The next message, or `nil` when none came within `timeout` or the stream ended.
    func next(timeout: Duration = .seconds(10)) async throws -> Message? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (message, closed): (Message?, Bool) = state.withLock { state in
                state.messages.isEmpty ? (nil, state.isClosed) : (state.messages.removeFirst(), false)
            }
            if let message { return message }
            if closed || ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The next message that is an event (has an `event` field), skipping comments and bare ids.
    func nextEvent(timeout: Duration = .seconds(10)) async throws -> Message? {
        let deadline = ContinuousClock.now + timeout
        while let message = try await next(timeout: max(deadline - ContinuousClock.now, .zero)) {
            if message.event != nil { return message }
        }
        return nil
    }

    /// Every event that comes within `window` (for asserting that nothing more comes).
    func events(within window: Duration) async throws -> [Message] {
        let deadline = ContinuousClock.now + window
        var events: [Message] = []
        while ContinuousClock.now < deadline, let message = try await next(timeout: deadline - ContinuousClock.now) {
            if message.event != nil { events.append(message) }
        }
        return events
    }

    /// Closes the connection from this side.
    func close() async {
        try? await channel.close()
    }

    fileprivate func received(_ bytes: ByteBufferView) {
        state.withLock { state in
            state.raw.append(contentsOf: bytes)
            if state.head == nil, let end = state.raw.firstRange(of: Array("\r\n\r\n".utf8)) {
                state.head = String(decoding: state.raw[..<end.lowerBound], as: UTF8.self)
                state.raw.removeSubrange(..<end.upperBound)
            }
            guard state.head != nil else { return }
            // Chunked transfer: <hex size>\r\n<bytes>\r\n, ended by a 0-size chunk.
            while let lineEnd = state.raw.firstRange(of: Array("\r\n".utf8)) {
                let sizeText = String(decoding: state.raw[..<lineEnd.lowerBound], as: UTF8.self)
                guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { break }
                if size == 0 {
                    state.isClosed = true  // the last chunk: the answer ended
                    state.raw.removeAll()
                    break
                }
                guard state.raw.count >= lineEnd.upperBound + size + 2 else { break }
                state.body.append(contentsOf: state.raw[lineEnd.upperBound..<lineEnd.upperBound + size])
                state.raw.removeSubrange(..<(lineEnd.upperBound + size + 2))
            }
            while let end = state.body.firstRange(of: Array("\n\n".utf8)) {
                let text = String(decoding: state.body[..<end.lowerBound], as: UTF8.self)
                state.body.removeSubrange(..<end.upperBound)
                state.messages.append(Self.parse(text))
            }
        }
    }

    fileprivate func closed() {
        state.withLock { $0.isClosed = true }
    }

    /// One message's lines, as the Server-Sent Events format reads them.
    static func parse(_ text: String) -> Message {
        var message = Message()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                message.comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
                continue
            }
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let name = String(line[..<colon])
            var value = colon < line.endIndex ? String(line[line.index(after: colon)...]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch name {
            case "id": message.id = value
            case "event": message.event = value
            case "data": message.data = message.data.map { $0 + "\n" + value } ?? value
            case "retry": message.retry = Int(value)
            default: continue
            }
        }
        return message
    }

    struct StreamFailure: Error, CustomStringConvertible {
        var description: String
    }

    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        weak var client: EventStreamClient?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            client?.received(unwrapInboundIn(data).readableBytesView)
        }

        func channelInactive(context: ChannelHandlerContext) {
            client?.closed()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
