import ArgumentParser
import Foundation
import IntranetServer

/// `intranet-server search-index rebuild`: writes the announcements' search index again.
struct SearchIndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search-index",
        abstract: "Maintain the announcements' search index.",
        subcommands: [Rebuild.self]
    )

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebuild",
            abstract: "Write the search index of every announcement again, from scratch, in one transaction.",
            discussion: """
                The index is kept up to date by every write; rebuild it after restoring a database \
                from elsewhere or to check it. Servers may keep running: searches use the old index \
                until the new one commits (on SQLite, writes wait meanwhile).
                """
        )

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdminConsole(database) { console in
                let started = ContinuousClock.now
                let count = try await console.rebuildSearchIndex()
                let (whole, fraction) = (ContinuousClock.now - started).components
                let seconds = Double(whole) + Double(fraction) / 1e18
                print("indexed \(count) announcement\(count == 1 ? "" : "s") in \(String(format: "%.1f", seconds)) s")
            }
        }
    }
}
