import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository

/// `intranet import`: brings content from other systems (admins only).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import content from another system (admins only).",
        discussion: ExitStatus.helpText,
        subcommands: [ImportWordPressCommand.self])
}

/// `intranet import wordpress FILE`: uploads a WordPress export and prints the server's report.
struct ImportWordPressCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "wordpress",
        abstract: "Import a WordPress export (Tools → Export, a WXR file) as announcements.",
        discussion: """
            Published posts become announcements, in one transaction on the server; running it \
            again changes nothing, and a newer export of the same site updates what changed. \
            On a terminal a progress bar shows the upload, then the server's import; otherwise \
            progress is a few plain lines on standard error. --output json prints the server's \
            report as JSON.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The export file.")
    var file: String

    @Flag(help: "Report what would happen and change nothing.")
    var dryRun = false

    @Flag(help: "Also import private and password-protected posts, readable only by you.")
    var includePrivate = false

    @Flag(help: "Also import published pages.")
    var includePages = false

    @Flag(help: "Also import scheduled posts, published here at their date.")
    var includeScheduled = false

    /// How long the server may work on an import before the client gives up.
    static let answerTimeout: TimeInterval = 3600

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let export: Data
        do {
            export = try Data(contentsOf: URL(fileURLWithPath: file), options: .mappedIfSafe)
        } catch {
            throw TerminalFailure(.notFound, "cannot read \(file)")
        }
        let progress = ImportProgressDisplay(total: Int64(export.count), context: context)
        await progress.start(file: file)
        let options = ImportsRepository.WordPressOptions(
            dryRun: dryRun, includePrivate: includePrivate, includePages: includePages, includeScheduled: includeScheduled)
        // A server that cannot follow imports still imports: then there is no import bar.
        let progressID = try? await session.client.imports.reserveProgress()
        let report: ImportReport
        // Once the upload is sent, follow the server's import until its answer arrives.
        let follower = Task {
            await progress.waitForUpload()
            while let progressID, !Task.isCancelled {
                if let status = try? await session.client.imports.progress(of: progressID) {
                    await progress.importing(status)
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        defer { follower.cancel() }
        do {
            report = try await session.performAsAdmin("the import of \(file)", task: "importing") {
                try await UploadProgress.$idleTimeout.withValue(Self.answerTimeout) {
                    try await UploadProgress.$observer.withValue({ sent, _ in progress.sent(sent) }) {
                        do {
                            return try await session.client.imports.wordPress(export: export, options: options, progressID: progressID)
                        } catch RepositoryError.badRequest(let details) {
                            // The file, not the request: say what the server found, and where.
                            let detail = details.problem?.detail ?? "not a WordPress export it can import"
                            throw TerminalFailure(.validation, "the server refused \(file): \(detail)")
                        }
                    }
                }
            }
        } catch {
            follower.cancel()
            await progress.finish()
            throw error
        }
        follower.cancel()
        await progress.finish()
        try await session.finish(saying: report.summary)
    }
}

/// The upload's progress on standard error: a bar redrawn in place on a terminal, a few plain
/// lines otherwise; then a note while the server imports.
final class ImportProgressDisplay: @unchecked Sendable {
    private let total: Int64
    private let context: TerminalContext
    private let lock = NSLock()
    private var lastDrawn: Int64 = -1
    private var lastLine = ""
    private var uploaded = false

    init(total: Int64, context: TerminalContext) {
        self.total = total
        self.context = context
    }

    func start(file: String) async {
        if !context.isErrorTerminal {
            await context.io.writeError("uploading \(file) (\(Self.megabytes(total)))\n")
        }
    }

    /// Called by the transport as bytes leave.
    func sent(_ bytes: Int64) {
        let (line, announceImport) = lock.withLock { () -> (String?, Bool) in
            let step = max(total / 100, 1)
            let done = bytes >= total
            guard done || bytes - lastDrawn >= step else { return (nil, false) }
            lastDrawn = bytes
            let first = done && !uploaded
            if done {
                uploaded = true
                uploadDone.continuation.yield()
                uploadDone.continuation.finish()
            }
            guard context.isErrorTerminal else { return (nil, first) }
            let line = done ? "importing on the server…" : Self.bar("uploading", bytes, of: total, detail: "\(Self.megabytes(bytes)) of \(Self.megabytes(total))")
            guard line != lastLine else { return (nil, false) }
            lastLine = line
            return (line, false)
        }
        let io = context.io
        if let line {
            Task { await io.writeError("\r\u{1B}[2K" + line) }
        } else if announceImport {
            Task { await io.writeError("uploaded; the server is importing\n") }
        }
    }

    private let uploadDone = AsyncStream<Void>.makeStream()
    private var lastQuarter = -1

    /// Returns once the whole body has been sent.
    func waitForUpload() async {
        for await _ in uploadDone.stream { return }
    }

    /// Shows how far the server's import is: a bar of the export read, and the items so far.
    func importing(_ status: ImportStatus) async {
        guard status.stage == .importing else { return }
        let total = Int64(status.totalBytes ?? Int(self.total))
        let parsed = Int64(status.bytesParsed)
        if context.isErrorTerminal {
            let line = Self.bar("importing", parsed, of: total, detail: "\(status.itemsRead) items")
            lock.withLock { lastLine = line }
            await context.io.writeError("\r\u{1B}[2K" + line)
        } else {
            let quarter = total > 0 ? Int(parsed * 4 / total) : 0
            let announce = lock.withLock { () -> Bool in
                guard quarter > lastQuarter else { return false }
                lastQuarter = quarter
                return true
            }
            if announce { await context.io.writeError("the server has read \(status.itemsRead) items\n") }
        }
    }

    /// Clears the bar.
    func finish() async {
        if context.isErrorTerminal && !lastLine.isEmpty {
            await context.io.writeError("\r\u{1B}[2K")
        }
    }

    /// `label [#####-----] 50% detail`.
    static func bar(_ label: String, _ done: Int64, of total: Int64, detail: String) -> String {
        let fraction = total > 0 ? min(Double(done) / Double(total), 1) : 1
        let width = 30
        let filled = Int(fraction * Double(width))
        let percent = Int(fraction * 100)
        return label + " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            + "] \(percent)% " + detail
    }

    /// `12.3 MB`, or `25 kB` below a megabyte.
    static func megabytes(_ bytes: Int64) -> String {
        bytes < 1_000_000 ? String(format: "%.0f kB", Double(bytes) / 1_000) : String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
