import Foundation

/// One file's upload on standard error: a bar redrawn in place when standard error is a
/// terminal (cleared at the end); otherwise plain lines, for logs: the start, each quarter
/// passed, and the end.
///
/// The transport reports from a thread of its own, as often as it likes; reports go through a
/// stream that keeps only the newest, and one task draws them in order.
final class UploadProgressDisplay: Sendable {
    private let reports: AsyncStream<Int64>.Continuation
    private let drawing: Task<Void, Never>

    /// Starts the display of the upload of `name`, `total` bytes.
    init(name: String, total: Int64, context: TerminalContext) {
        let (stream, reports) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        self.reports = reports
        drawing = Task {
            var drawn = UploadProgressDisplay.Drawn()
            if !context.isErrorTerminal {
                await context.io.writeError("uploading \(name) (\(ByteCount.format(total)))\n")
            }
            for await sent in stream {
                if let text = UploadProgressDisplay.update(&drawn, sent: sent, total: total, name: name, onTerminal: context.isErrorTerminal) {
                    await context.io.writeError(text)
                }
            }
            if context.isErrorTerminal, drawn.percent >= 0 {
                await context.io.writeError("\r\u{1B}[2K")
            }
        }
    }

    /// Reports the bytes sent so far; called by the transport as they leave.
    func sent(_ bytes: Int64, of _: Int64) {
        reports.yield(bytes)
    }

    /// Ends the display once what was reported is drawn (the bar is cleared).
    func finish() async {
        reports.finish()
        await drawing.value
    }

    /// What has been drawn so far.
    struct Drawn {
        /// The share shown by the bar, in percent; -1 before the first.
        var percent = -1
        /// The quarters announced in plain lines.
        var quarter = 0
    }

    /// The text to write for `sent` bytes, if anything changed: the bar on a terminal, a line
    /// per quarter passed (and one at the end) otherwise.
    static func update(_ drawn: inout Drawn, sent: Int64, total: Int64, name: String, onTerminal: Bool) -> String? {
        let percent = total > 0 ? Int(min(sent, total) * 100 / total) : 100
        if onTerminal {
            guard percent != drawn.percent else { return nil }
            drawn.percent = percent
            let detail = "\(ByteCount.format(min(sent, total))) of \(ByteCount.format(total))"
            return "\r\u{1B}[2K" + ImportProgressDisplay.bar(name, min(sent, total), of: total, detail: detail)
        }
        let quarter = percent / 25
        guard quarter > drawn.quarter else { return nil }
        drawn.quarter = quarter
        return quarter >= 4 ? "sent \(name)\n" : "\(name): \(quarter * 25)% sent\n"
    }
}
