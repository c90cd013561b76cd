import Foundation
import Synchronization

/// How access log lines are written (`ACCESS_LOG`).
public enum AccessLogFormat: String, Sendable, CaseIterable {
    /// `time=… request_id=… method=GET path=/announcements status=200 bytes=… duration_ms=… user_id=3 early=true`
    case logfmt
    /// One JSON object per line with the same fields (`requestId`, `durationMs`, `userId`…).
    case json
}

/// One line per request on standard output, early answers included: request id, method, path
/// (the values of query parameters that may carry secrets replaced by `***`), status, body
/// bytes, duration and the signed-in user's id. The application's own log stays on standard
/// error.
final class AccessLog: Sendable {
    /// What one line says.
    struct Entry: Sendable {
        var time: Date
        var requestID: String
        var method: String
        /// The request target as received (path and query); redacted when written.
        var target: String
        var status: Int
        /// The body's length, when known.
        var bytes: Int?
        var duration: Duration
        var userID: Int?
        /// Answered on the event loop: from the cache (``PublicAnswerHandler``) or a live stream
        /// (``EventStreamHandler``).
        var early: Bool
    }

    /// Query parameters whose values are never written.
    static let secretParameters: Set<String> = ["token", "access_token", "password", "secret", "key", "signature", "code", "auth"]

    let format: AccessLogFormat
    private let output: @Sendable (String) -> Void
    /// The last second formatted (`2026-11-23T19:38:10`): formatting a date is the costliest
    /// part of a line, and a busy server writes thousands of lines in each second.
    private let formattedSecond = Mutex<(second: Int, text: String)>((-1, ""))

    /// - Parameter output: receives each line, newline included (standard output by default).
    init(format: AccessLogFormat, output: @escaping @Sendable (String) -> Void = AccessLog.standardOutput) {
        self.format = format
        self.output = output
    }

    /// Lines go to standard output through ``LineBuffer/standardOutput``.
    static let standardOutput: @Sendable (String) -> Void = { LineBuffer.standardOutput.append($0) }

    func record(_ entry: Entry) {
        output(line(for: entry))
    }

    func line(for entry: Entry) -> String {
        let time = timestamp(entry.time)
        let path = Self.redacted(entry.target)
        let microseconds = max(0, entry.duration.components.seconds * 1_000_000 + entry.duration.components.attoseconds / 1_000_000_000_000)
        let duration = "\(microseconds / 1000)." + Self.padded(Int(microseconds % 1000), to: 3)
        switch format {
        case .logfmt:
            var line = "time=\(time) request_id=\(Self.logfmtValue(entry.requestID)) method=\(Self.logfmtValue(entry.method))"
            line += " path=\(Self.logfmtValue(path)) status=\(entry.status) bytes=\(entry.bytes.map(String.init) ?? "-")"
            line += " duration_ms=\(duration) user_id=\(entry.userID.map(String.init) ?? "-") early=\(entry.early)\n"
            return line
        case .json:
            var line = "{\"time\":\(Self.jsonString(time)),\"requestId\":\(Self.jsonString(entry.requestID))"
            line += ",\"method\":\(Self.jsonString(entry.method)),\"path\":\(Self.jsonString(path)),\"status\":\(entry.status)"
            line += ",\"bytes\":\(entry.bytes.map(String.init) ?? "null"),\"durationMs\":\(duration)"
            line += ",\"userId\":\(entry.userID.map(String.init) ?? "null"),\"early\":\(entry.early)}\n"
            return line
        }
    }

    /// RFC 3339 UTC with milliseconds: `2026-11-23T19:38:10.224Z`.
    private func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let second = Int(interval.rounded(.down))
        let milliseconds = min(999, Int((interval - Double(second)) * 1000))
        let text = formattedSecond.withLock { cached in
            if cached.second != second {
                let seconds = Date(timeIntervalSince1970: Double(second))
                cached = (second, seconds.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.colon)))
                if cached.text.hasSuffix("Z") { cached.text.removeLast() }
            }
            return cached.text
        }
        return text + "." + Self.padded(milliseconds, to: 3) + "Z"
    }

    private static func padded(_ number: Int, to width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `target` with the value of every query parameter named in ``secretParameters`` (any
    /// case, percent-encoded or not) replaced by `***`.
    static func redacted(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.prefix { $0 != "=" }
            // Compared as the server reads it: `%74oken` is `token`.
            let decoded = String(name).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name)
            guard name.count < pair.count, secretParameters.contains(decoded.lowercased()) else { return String(pair) }
            return name + "=***"
        }
        return target[..<mark] + "?" + query.joined(separator: "&")
    }

    /// A logfmt value: bare when it is plain, otherwise quoted with `"` and `\` escaped and
    /// control characters dropped (a client cannot forge a second field or line).
    static func logfmtValue(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "=" && $0 != "\\" }
        if plain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
            if scalar == "\"" || scalar == "\\" { quoted += "\\" }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }

    /// A JSON string literal.
    static func jsonString(_ value: String) -> String {
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += String(format: "\\u%04x", scalar.value)
            default:
                quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

/// What the inner middleware learns about a request that its access log line needs: the
/// request context is copied inward, so this is shared by reference.
final class AccessNote: Sendable {
    private let signedInUser = Atomic<Int>(0)

    init() {}

    /// The signed-in user's id, once the request's token was accepted.
    var userID: Int? {
        get {
            let id = signedInUser.load(ordering: .relaxed)
            return id == 0 ? nil : id
        }
        set { signedInUser.store(newValue ?? 0, ordering: .relaxed) }
    }
}

/// Lines gathered in memory and written to a file descriptor in large writes: when 64 KiB are
/// waiting, every 100 ms, and on ``flush()`` (the server flushes when it stops). A line is never
/// split between writes, so lines from several threads never mix; what was not yet written when
/// the process is killed is lost (at most 100 ms of lines). A full or closed output loses lines,
/// never requests.
final class LineBuffer: Sendable {
    /// Standard output's buffer, for the whole process.
    static let standardOutput = LineBuffer(descriptor: STDOUT_FILENO)

    private static let limit = 64 * 1024
    private let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])
    private let writing = Mutex<Void>(())

    init(descriptor: Int32) {
        self.descriptor = descriptor
        Thread.detachNewThread { [weak self] in
            while let buffer = self {
                buffer.flush()
                usleep(100_000)
            }
        }
    }

    /// Adds `line` (with its newline).
    func append(_ line: String) {
        let isFull = pending.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            return bytes.count >= Self.limit
        }
        if isFull { flush() }
    }

    /// Writes everything gathered so far.
    func flush() {
        // Taking the lines and writing them under one lock keeps batches in order.
        writing.withLock { _ in
            let bytes = pending.withLock { bytes -> [UInt8] in
                defer { bytes = [] }
                return bytes
            }
            if !bytes.isEmpty { write(bytes) }
        }
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 {
                    if written < 0, errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
