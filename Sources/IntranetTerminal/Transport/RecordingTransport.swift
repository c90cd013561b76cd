import Foundation
import HTTPTypes
import RESTRepository

/// A ``Transport`` that passes every request to another one, records each response body in
/// an ``ExchangeRecorder`` and, for `--verbose`, reports one line per request: method, URL,
/// the body sent (bytes and format), status, time taken and the body received (or why no
/// answer came).
///
/// It sits at the end of the SDK's middleware chain, so it sees every request actually sent.
public struct RecordingTransport: Transport {
    /// The transport that sends the requests.
    public let base: any Transport
    /// Where response bodies are kept.
    public let recorder: ExchangeRecorder
    /// The server's base URL, put before each path in log lines.
    public let baseURL: URL
    /// Receives one log line per request; `nil` logs nothing.
    public let log: (@Sendable (String) async -> Void)?

    /// Wraps a transport.
    ///
    /// - Parameters:
    ///   - base: the transport that sends the requests.
    ///   - recorder: where response bodies are kept.
    ///   - baseURL: the server's base URL, for log lines.
    ///   - log: receives one line per request, or `nil`.
    public init(
        _ base: any Transport, recorder: ExchangeRecorder, baseURL: URL,
        log: (@Sendable (String) async -> Void)? = nil
    ) {
        self.base = base
        self.recorder = recorder
        self.baseURL = baseURL
        self.log = log
    }

    /// Sends the request through the wrapped transport and records the answer.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let path = request.path ?? "/"
        let version = request.headerFields[.acceptVersion].map { " (Accept-Version: \($0))" } ?? ""
        let sent = body.map { " — sent \(Self.describe($0.count, request.headerFields[.contentType]))" } ?? ""
        let line = "\(request.method.rawValue) \(url(for: path))\(version)\(sent)"
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let (response, data) = try await base.send(request, body: body)
            await recorder.record(.init(method: request.method.rawValue, path: path, status: response.status.code, body: data))
            // A download's body went to a file: its length says how much arrived.
            let toFile = data.isEmpty && request.method == .get && response.status.kind == .successful
                ? response.headerFields[.contentLength].flatMap(Int.init) : nil
            let received = Self.describe(toFile ?? data.count, response.headerFields[.contentType]) + (toFile == nil ? "" : " into a file")
            await log?("\(line) → \(response.status.code) in \(milliseconds(since: start, clock)) ms, received \(received)")
            return (response, data)
        } catch {
            await log?("\(line) → no answer after \(milliseconds(since: start, clock)) ms")
            throw error
        }
    }

    /// `57 bytes of application/spearal`.
    private static func describe(_ count: Int, _ contentType: String?) -> String {
        let noun = count == 1 ? "byte" : "bytes"
        guard let contentType, count > 0 else { return "\(count) \(noun)" }
        return "\(count) \(noun) of \(contentType)"
    }

    private func url(for path: String) -> String {
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    private func milliseconds(since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Int64 {
        let (seconds, attoseconds) = (clock.now - start).components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
