import Foundation
import NIOCore
import NIOPosix

/// Writes raw bytes to a server and reads every answer until the server closes the connection
/// (or 60 s pass: a guard against a server that never closes, long enough for the whole suite
/// running at once on two cores): for pipelined requests, which no HTTP client library sends.
/// The last request should carry `Connection: close`.
enum RawHTTP {
    /// One answer as it came off the socket.
    struct Answer {
        var statusLine: String
        var headers: [(name: String, value: String)]
        /// The body's bytes, as sent.
        var bodyBytes: [UInt8]

        /// The body as UTF-8 text.
        var body: String { String(decoding: bodyBytes, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// - Parameter closingOutput: whether to shut the connection's sending side once the
    ///   requests are written (as `nc -N` does), instead of asking with `Connection: close`.
    static func exchange(port: Int, requests: [String], closingOutput: Bool = false) async throws -> [Answer] {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "localhost", port: port)
            .get()
        // A server that never closes must fail the test, not hang it: after the deadline the
        // connection is closed and whatever arrived is returned.
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(60)) { channel.close(promise: nil) }
        try await channel.writeAndFlush(ByteBuffer(string: requests.joined())).get()
        if closingOutput { try await channel.close(mode: .output).get() }
        let bytes = try await collector.received.futureResult.get()
        deadline.cancel()
        return try parse(bytes)
    }

    struct MalformedAnswer: Error, CustomStringConvertible {
        var description: String
    }

    /// Splits a stream of `Content-Length`-framed answers.
    static func parse(_ bytes: [UInt8]) throws -> [Answer] {
        var answers: [Answer] = []
        var rest = bytes[...]
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while !rest.isEmpty {
            guard let headEnd = rest.firstRange(of: separator) else {
                throw MalformedAnswer(description: "no end of head in \(String(decoding: rest, as: UTF8.self))")
            }
            let lines = String(decoding: rest[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let headers = lines.dropFirst().map { line -> (name: String, value: String) in
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
            }
            let length = Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
            let body = rest[headEnd.upperBound...].prefix(length)
            answers.append(Answer(statusLine: lines[0], headers: headers, bodyBytes: Array(body)))
            rest = rest[body.endIndex...]
        }
        return answers
    }

    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let received: EventLoopPromise<[UInt8]>
        private var buffer = ByteBuffer()

        init() {
            received = MultiThreadedEventLoopGroup.singleton.next().makePromise()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var chunk = unwrapInboundIn(data)
            buffer.writeBuffer(&chunk)
        }

        func channelInactive(context: ChannelHandlerContext) {
            received.succeed(Array(buffer.readableBytesView))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            received.fail(error)
            context.close(promise: nil)
        }
    }
}
