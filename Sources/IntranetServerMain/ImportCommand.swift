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

                With --media-dir (a copy of the site's wp-content/uploads) or --fetch-media (downloads from the \
                hosts the export names), the posts' files become their attachments and the bodies point to \
                them; files already imported are not read again.
                """
        )

        @Argument(help: "The export file.") var file: String
        @Flag(help: "Report what would happen and change nothing.") var dryRun = false
        @Flag(help: "Import private and password-protected posts, readable only by --owner.") var includePrivate = false
        @Flag(help: "Import published pages as announcements too.") var includePages = false
        @Flag(help: "Import scheduled posts too, published at their date.") var includeScheduled = false
        @Option(help: "The admin (username) private posts are restricted to.") var owner: String?
        @Option(help: "text (default) or json.") var output: ReportFormat = .text
        @Option(help: "Bring the media from this copy of the site's wp-content/uploads directory.") var mediaDir: String?
        @Flag(help: "Bring the media by downloading them from the hosts the export names.") var fetchMedia = false
        @Option(help: "Seconds one download may take (with --fetch-media).") var mediaTimeout = 30
        @Option(help: "Most files one import downloads (with --fetch-media).") var maxMediaFiles = 10_000
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if mediaDir != nil && fetchMedia { throw ValidationError("give either --media-dir or --fetch-media, not both") }
            guard (1...3600).contains(mediaTimeout) else { throw ValidationError("--media-timeout must be 1 to 3600 seconds") }
            guard maxMediaFiles > 0 else { throw ValidationError("--max-media-files must be at least 1") }
        }

        func run() async throws {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            var isDirectory: ObjCBool = false
            if let mediaDir, !FileManager.default.fileExists(atPath: mediaDir, isDirectory: &isDirectory) || !isDirectory.boolValue {
                throw ValidationError("--media-dir \(mediaDir) is not a directory")
            }
            let media = try mediaOptions()
            try await withAdminConsole(database) { console in
                let options = ImportOptions(
                    dryRun: dryRun, includePrivate: includePrivate, includePages: includePages, includeScheduled: includeScheduled, media: media)
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

        /// Where the media come from, with the attachments' limits of the configuration.
        private func mediaOptions() throws -> MediaImportOptions? {
            let source: MediaImportOptions.Source
            if let mediaDir {
                source = .directory(mediaDir)
            } else if fetchMedia {
                source = .site
            } else {
                return nil
            }
            var media = MediaImportOptions(source: source, configuration: try database.configuration())
            media.timeout = .seconds(mediaTimeout)
            media.maxFiles = maxMediaFiles
            return media
        }
    }

    enum ReportFormat: String, ExpressibleByArgument {
        case text, json
    }
}
