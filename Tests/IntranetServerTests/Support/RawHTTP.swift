import Foundation
import NIOCore
import NIOPosix

/// Writes raw bytes to a server and reads every answer until the server closes the connection
/// (or 10 s pass): for pipelined requests, which no HTTP client library sends. The last request
/// should carry `Connection: close`.
enum RawHTTP {
    /// One answer as it came off the socket.
    struct Answer {
        var statusLine: String
        var headers: [(name: String, value: String)]
        var body: String

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    static func exchange(port: Int, requests: [String]) async throws -> [Answer] {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "localhost", port: port)
            .get()
        // A server that never closes must fail the test, not hang it: after the deadline the
        // connection is closed and whatever arrived is returned.
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(10)) { channel.close(promise: nil) }
        try await channel.writeAndFlush(ByteBuffer(string: requests.joined())).get()
        let bytes = try await collector.received.futureResult.get()
        deadline.cancel()
        return try parse(bytes)
    }

    struct MalformedAnswer: Error, CustomStringConvertible {
        var description: String
    }

    /// Splits a stream of `Content-Length`-framed answers.
    static func parse(_ text: String) throws -> [Answer] {
        var answers: [Answer] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let headEnd = rest.range(of: "\r\n\r\n") else { throw MalformedAnswer(description: "no end of head in \(rest)") }
            let lines = rest[..<headEnd.lowerBound].components(separatedBy: "\r\n")
            let headers = lines.dropFirst().map { line -> (name: String, value: String) in
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
            }
            let length = Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
            let bodyStart = headEnd.upperBound
            let body = rest.utf8[bodyStart...].prefix(length)
            answers.append(Answer(statusLine: lines[0], headers: headers, body: String(decoding: body, as: UTF8.self)))
            rest = Substring(rest.utf8[body.endIndex...])
        }
        return answers
    }

    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let received: EventLoopPromise<String>
        private var buffer = ByteBuffer()

        init() {
            received = MultiThreadedEventLoopGroup.singleton.next().makePromise()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var chunk = unwrapInboundIn(data)
            buffer.writeBuffer(&chunk)
        }

        func channelInactive(context: ChannelHandlerContext) {
            received.succeed(String(buffer: buffer))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            received.fail(error)
            context.close(promise: nil)
        }
    }
}
