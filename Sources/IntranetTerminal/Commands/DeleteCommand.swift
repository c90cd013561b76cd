import ArgumentParser
import Foundation
import IntranetClient

/// `intranet announcements delete ID [--yes]`: asks first on a terminal; refuses without a
/// terminal unless `--yes` says so.
struct DeleteCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an announcement (asks first unless --yes).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    @Flag(name: .shortAndLong, help: "Delete without asking.")
    var yes = false

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let subject = "announcement \(id)"
        if yes {
            try await session.perform(subject) { try await session.announcements.deleteUnconditionally(id: id) }
        } else {
            try context.requireConfirmable(deleting: subject, yes: yes)
            let current = try await session.perform(subject) { try await session.announcements.readVersioned(id: id) }
            try await context.confirmDeletion(of: subject, asking: "Delete \(subject) “\(current.value.title)”?")
            // If-Match: what was confirmed is what gets deleted.
            try await session.perform(subject) { try await session.announcements.delete(current) }
        }
        if !session.printsRaw {
            await context.io.write("Deleted announcement \(id).\n")
        }
    }
}
