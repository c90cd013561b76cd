import ArgumentParser
import IntranetClient
import RESTRepository

/// `intranet announcements update ID [--title T] [--body …|--body-file F] [--clear-body]`
/// and publishing options (`--publish`, `--draft`, `--publish-at`, `--pin`, `--unpin`, …):
/// sends only what was given as a JSON Merge Patch, guarded by `If-Match` with the ETag of a
/// fresh read, so a concurrent edit is reported instead of overwritten.
struct UpdateCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change an announcement's title, body or publishing; only what you give is sent.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    @Option(help: "The new title.")
    var title: String?

    @Option(help: ArgumentHelp("The new HTML body; - reads it from standard input.", valueName: "html"))
    var body: String?

    @Option(help: ArgumentHelp("Read the new HTML body from a file (- for standard input; a .md file is Markdown).", valueName: "file"))
    var bodyFile: String?

    @Option(help: ArgumentHelp("Read the new body as Markdown from a file (- for standard input).", valueName: "file"))
    var markdown: String?

    @Flag(help: "Remove the body.")
    var clearBody = false

    @Option(help: ArgumentHelp(
        "Change it only if its ETag is still this one (skips the fresh read).", valueName: "etag"))
    var ifMatch: String?

    @OptionGroup var publishing: PublishingOptions

    private var source: BodySource { BodySource(text: body, file: bodyFile, markdownFile: markdown) }

    func validate() throws {
        if title == nil, !source.isGiven, !clearBody, !publishing.isGiven {
            throw ValidationError("nothing to change: give --title, --body, --body-file, --markdown, --clear-body or a publishing option")
        }
        if let conflict = source.conflict { throw ValidationError(conflict) }
        if clearBody, source.isGiven {
            throw ValidationError("--clear-body removes the body; leave out --body, --body-file and --markdown")
        }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let subject = "announcement \(id)"
        let text = clearBody ? nil : try await source.read(from: context.io)
        var patch = try publishing.patch()
        patch.title = title.map(RequiredPatchField.value) ?? .absent
        if clearBody {
            patch.body = .null
        } else if let text {
            if source.isMarkdown { patch.markdown = .value(text) } else { patch.body = .value(text) }
        }
        if let ifMatch {
            _ = try await session.perform(subject) {
                try await session.announcements.patch(patch, id: id, ifMatch: ifMatch)
            }
        } else {
            let current = try await session.perform(subject) { try await session.announcements.readVersioned(id: id) }
            await session.note("read \(subject) with ETag \(current.etag ?? "(none)"); the change is sent with If-Match")
            _ = try await session.perform(subject) { try await session.announcements.patch(patch, of: current) }
        }
        try await session.finish(saying: "Updated announcement \(id).")
    }
}
