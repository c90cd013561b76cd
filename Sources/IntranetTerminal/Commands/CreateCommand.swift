import ArgumentParser
import IntranetAPI
import IntranetClient

/// `intranet announcements create --title T [--body HTML | --body - | --body-file F]` with
/// publishing options (`--draft`, `--publish-at`, `--expires-at`, `--pin`, `--important`,
/// `--audience`): creates an announcement and prints its id (or the server's JSON).
struct CreateCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an announcement and print its id.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The title.")
    var title: String

    @Option(help: ArgumentHelp("The HTML body; - reads it from standard input.", valueName: "html"))
    var body: String?

    @Option(help: ArgumentHelp("Read the HTML body from a file (- for standard input; a .md file is Markdown).", valueName: "file"))
    var bodyFile: String?

    @Option(help: ArgumentHelp("Read the body as Markdown (CommonMark with tables) from a file (- for standard input).", valueName: "file"))
    var markdown: String?

    @OptionGroup var publishing: PublishingOptions

    private var source: BodySource { BodySource(text: body, file: bodyFile, markdownFile: markdown) }

    func validate() throws {
        if let conflict = source.conflict { throw ValidationError(conflict) }
        if publishing.unpin || publishing.notImportant {
            throw ValidationError("--unpin and --not-important change an existing announcement; a new one is neither pinned nor important")
        }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let text = try await source.read(from: context.io)
        let draft = source.isMarkdown ? AnnouncementDraft(title: title, markdown: text) : AnnouncementDraft(title: title, body: text)
        let created = try await session.perform("the new announcement") {
            try await session.announcements.createVersioned(try publishing.applied(to: draft))
        }
        try await session.finish(saying: "\(created.value.id)")
    }
}
