import ArgumentParser
import Foundation
import IntranetClient

/// `intranet announcements show ID`: the title and the rendered body.
///
/// Under 1.0 the list carries bodies, so the command walks the list's pages to the item and
/// opens it without another request; under 2.0 it fetches the announcement by id, the way
/// the reference app's detail screen does. `--verbose` shows which requests were made.
struct ShowCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one announcement: its title and its body as readable text.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let subject = "announcement \(id)"
        let announcement: Announcement
        let raw: Data
        switch global.apiVersion {
        case .v1:
            await session.note("API 1.0: lists carry bodies; looking for \(subject) in the list")
            guard let (summary, element) = try await findInList(session, subject: subject) else {
                throw TerminalFailure(.notFound, "\(subject) does not exist")
            }
            announcement = try await session.perform(subject) { try await session.announcements.open(summary) }
            await session.note("\(subject) taken from the list: no detail request")
            raw = element
        case .v2, .v3:
            announcement = try await session.perform(subject) { try await session.announcements.read(id: id) }
            raw = await session.recorder.lastBody
        }
        if session.printsRaw {
            try await session.writeRaw(raw)
        } else {
            let view = AnnouncementDetailView(width: context.width, isStyled: context.isStyled)
            await session.writeLines(view.lines(for: announcement))
        }
    }

    /// Walks the list, 100 items a page, until the item turns up; returns it with its raw
    /// list element as the server sent it (JSON or Spearal).
    private func findInList(_ session: CommandSession, subject: String) async throws -> (AnnouncementSummary, Data)? {
        try await session.perform(subject) {
            for try await page in session.announcements.pages(pageSize: 100) {
                guard let index = page.items.firstIndex(where: { $0.id == id }) else { continue }
                return (page.items[index], session.listElement(of: await session.recorder.lastBody, at: index))
            }
            return nil
        }
    }
}
