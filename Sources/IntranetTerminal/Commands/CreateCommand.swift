import ArgumentParser
import IntranetAPI
import IntranetClient

/// `intranet announcements create --title T [--body HTML | --body - | --body-file F]`:
/// creates an announcement and prints its id (or the server's JSON).
struct CreateCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an announcement and print its id.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The title.")
    var title: String

    @Option(help: ArgumentHelp("The HTML body; - reads it from standard input.", valueName: "html"))
    var body: String?

    @Option(help: ArgumentHelp("Read the HTML body from a file (- for standard input).", valueName: "file"))
    var bodyFile: String?

    private var source: BodySource { BodySource(text: body, file: bodyFile) }

    func validate() throws {
        if let conflict = source.conflict { throw ValidationError(conflict) }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let html = try await source.read(from: context.io)
        let created = try await session.perform("the new announcement") {
            try await session.announcements.createVersioned(AnnouncementDraft(title: title, body: html))
        }
        try await session.finish(saying: "\(created.value.id)")
    }
}
