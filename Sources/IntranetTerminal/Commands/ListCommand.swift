import ArgumentParser
import Foundation
import IntranetClient
import RESTRepository

/// `intranet announcements [list]`: one page, or every page with `--all`, as a table or as
/// the server's JSON.
struct ListCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List announcements as a table fitted to the terminal (the default command).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The page to show, from 1.")
    var page: Int?

    @Option(help: "Announcements per page, 1 to 100 (default 10; 100 with --all).")
    var perPage: Int?

    @Flag(help: "Walk every page (through the SDK's page sequence).")
    var all = false

    @Option(help: ArgumentHelp(
        "List what readers do not see: draft, scheduled or expired (editors and admins).", valueName: "status"))
    var status: AnnouncementsRepository.Listing?

    @Flag(help: "Keep the list open and print each change as it happens, until interrupted (Ctrl-C).")
    var follow = false

    func validate() throws {
        if follow, global.output != .table {
            throw ValidationError("--follow prints lines for people; for scripts use: intranet events --output json")
        }
        if all, page != nil {
            throw ValidationError("--all shows every page; leave out --page")
        }
        if let page, page < 1 {
            throw ValidationError("--page must be 1 or more")
        }
        if let perPage, !(1...100).contains(perPage) {
            throw ValidationError("--per-page must be between 1 and 100")
        }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        guard follow else {
            try await Self.list(global: global, page: page, perPage: perPage, all: all, status: status, in: context)
            return
        }
        // Listening starts while the list is read, so that little can change in between unseen
        // (the stream connects in the background: a change in the moment before may be missed).
        let session = try CommandSession(options: global, context: context)
        let following = FollowedChanges(session.client.changes())
        try await Self.list(global: global, page: page, perPage: perPage, all: all, status: status, in: context)
        try await following.print(to: session)
    }

    /// Lists one page (or every page) of `status` (live announcements when `nil`).
    static func list(
        global: GlobalOptions, page: Int?, perPage: Int?, all: Bool, status: AnnouncementsRepository.Listing?, in context: TerminalContext
    ) async throws {
        let session = try CommandSession(options: global, context: context)
        let table = AnnouncementTable(width: context.width, isStyled: context.isStyled)
        if all {
            var items: [AnnouncementSummary] = []
            var bodies: [Data] = []
            try await session.perform("the announcements") {
                for try await page in session.announcements.pages(pageSize: perPage ?? 100, extraQuery: status?.query ?? []) {
                    items += page.items
                    bodies.append(await session.recorder.lastBody)
                }
            }
            if session.printsRaw {
                try await session.writeRaw(session.joinedList(bodies))
            } else {
                let noun = items.count == 1 ? "announcement" : "announcements"
                await session.writeLines(table.lines(for: items, footer: "\(items.count) \(noun)"))
            }
            return
        }
        let number = page ?? 1
        let result = try await session.perform("the announcements") {
            try await session.announcements.read(page: number, pageSize: perPage ?? 10, extraQuery: status?.query ?? [])
        }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
        } else {
            await session.writeLines(table.lines(for: result.items, footer: footer(for: result)))
        }
    }

    /// `Page 1 of 2 · 12 announcements`, with what the response said.

    static func footer(for page: Page<AnnouncementSummary>) -> String {
        var footer = "Page \(page.number)"
        if let count = page.info.pageCount {
            footer += " of \(max(count, 1))"
        }
        if let total = page.info.total {
            footer += " · \(total) announcement\(total == 1 ? "" : "s")"
        }
        return footer
    }
}

extension AnnouncementsRepository.Listing: ExpressibleByArgument {}

/// `intranet announcements drafts`: the drafts, for editors (as `list --status draft`).
struct DraftsCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "drafts",
        abstract: "List drafts (editors and admins); see list --status for scheduled and expired ones.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The page to show, from 1.")
    var page: Int?

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        try await ListCommand.list(global: global, page: page, perPage: nil, all: false, status: .draft, in: context)
    }
}
