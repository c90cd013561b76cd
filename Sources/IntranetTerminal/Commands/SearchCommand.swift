import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient

/// `intranet search TEXT… [--people | --announcements] [--page N] [--per-page N]`.
struct SearchCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search people and announcements at once, best first.",
        discussion: """
            Every word must match, in any order, ignoring case and accents; the last word also \
            matches the beginning of a word; "quoted words" match as a phrase. Prints the people \
            found, then the announcements, each with the part that matched.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to look for (several words are one search).")
    var words: [String]

    @Flag(help: "Search people only.")
    var people = false

    @Flag(help: "Search announcements only.")
    var announcements = false

    @Option(help: "The page of each group, from 1.")
    var page = 1

    @Option(help: "Results per group and page, 1 to 50 (default 10).")
    var perPage = 10

    var text: String { words.joined(separator: " ") }

    func validate() throws {
        if people && announcements { throw ValidationError("--people and --announcements cannot be used together") }
        if text.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("give the text to search for") }
        if text.unicodeScalars.count > 200 { throw ValidationError("the text may be at most 200 characters") }
        if page < 1 { throw ValidationError("--page must be 1 or more") }
        if !(1...50).contains(perPage) { throw ValidationError("--per-page must be between 1 and 50") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let groups: SearchRepository.Groups = people ? .people : announcements ? .announcements : .both
        let results = try await session.perform("the search") {
            try await session.client.search(text, groups: groups, page: page, pageSize: perPage)
        }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
            return
        }
        await session.writeLines(SearchTable(width: context.width, isStyled: context.isStyled).lines(for: results, query: text, page: page))
    }
}
