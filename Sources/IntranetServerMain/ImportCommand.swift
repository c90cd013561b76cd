import ArgumentParser
import Foundation
import IntranetAPI
import IntranetServer

/// `intranet-server import wordpress FILE.xml`: imports a WordPress export on the server machine.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import content from another system.",
        subcommands: [WordPress.self]
    )

    struct WordPress: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wordpress",
            abstract: "Import a WordPress export (Tools → Export, a WXR file) as announcements, in one transaction.",
            discussion: """
                Published posts become announcements; drafts, pending, scheduled, trashed, private and \
                password-protected posts, pages, attachments and comments are skipped and counted. Running it \
                again changes nothing; a newer export of the same site updates what changed. On SQLite, stop \
                the server first (or import through it with `intranet import wordpress`).
                """
        )

        @Argument(help: "The export file.") var file: String
        @Flag(help: "Report what would happen and change nothing.") var dryRun = false
        @Flag(help: "Import private and password-protected posts, readable only by --owner.") var includePrivate = false
        @Flag(help: "Import published pages as announcements too.") var includePages = false
        @Flag(help: "Import scheduled posts too, published at their date.") var includeScheduled = false
        @Option(help: "The admin (username) private posts are restricted to.") var owner: String?
        @Option(help: "text (default) or json.") var output: ReportFormat = .text
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            try await withAdminConsole(database) { console in
                let options = ImportOptions(
                    dryRun: dryRun, includePrivate: includePrivate, includePages: includePages, includeScheduled: includeScheduled)
                let report = try await console.importWordPress(path: file, options: options, owner: owner)
                switch output {
                case .text:
                    print(report.summary)
                case .json:
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
                    print(String(decoding: try encoder.encode(report), as: UTF8.self))
                }
            }
        }
    }

    enum ReportFormat: String, ExpressibleByArgument {
        case text, json
    }
}
