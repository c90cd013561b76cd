import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient

/// `intranet ack ID`: "I have read and understood".
struct AckCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Confirm you have read and understood an announcement that asks for it.",
        discussion: """
            Once per round: confirming again says when you first did. When the server cannot be \
            reached, the confirmation is kept on this machine (unless --cache off) and sent, \
            once, by the next intranet ack or intranet pending that reaches the server.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    func validate() throws {
        if id < 1 { throw ValidationError("the id must be 1 or more") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        await session.sendQueuedAcknowledgements()
        let outcome = try await session.perform("announcement \(id)") { try await session.client.acknowledge(id) }
        switch outcome {
        case .confirmed(let receipt):
            try await session.finish(saying: "Confirmed announcement \(id) (round \(receipt.round)) at \(LocalTime.format(receipt.acknowledgedAt)).")
        case .queued(let since):
            await session.io.write(
                "The server cannot be reached: your confirmation of announcement \(id) (made \(LocalTime.format(since))) is kept on this machine and will be sent by the next intranet ack or intranet pending that reaches it.\n")
        }
    }
}

/// `intranet pending`: what waits for your confirmation.
struct PendingCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List the announcements waiting for your confirmation, the earliest due first.",
        discussion: ExitStatus.helpText)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The page, from 1.")
    var page = 1

    @Option(help: "Announcements per page, 1 to 100 (default 20).")
    var perPage = 20

    func validate() throws {
        if page < 1 { throw ValidationError("--page must be 1 or more") }
        if !(1...100).contains(perPage) { throw ValidationError("--per-page must be between 1 and 100") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        await session.sendQueuedAcknowledgements()
        let found = try await session.perform("the pending list") { try await session.client.acknowledgements.pending(page: page, pageSize: perPage) }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
            return
        }
        guard !found.items.isEmpty else {
            await session.io.write(page == 1 ? "Nothing waits for your confirmation.\n" : "No more on this page.\n")
            return
        }
        let now = Date()
        let rows = found.items.map { item -> (String, String, String) in
            let due = item.acknowledgement?.dueAt.map { ($0 <= now ? "overdue " : "") + LocalTime.format($0) } ?? "—"
            return (String(item.id), due, item.title)
        }
        let idWidth = max(2, rows.map(\.0.count).max() ?? 2)
        let dueWidth = max(3, rows.map { DisplayWidth.of($0.1) }.max() ?? 3)
        func line(_ row: (String, String, String)) -> String {
            String(repeating: " ", count: idWidth - row.0.count) + row.0 + "  " + DisplayWidth.padded(row.1, toWidth: dueWidth) + "  "
                + DisplayWidth.truncate(row.2, toWidth: max(10, context.width - idWidth - dueWidth - 4))
        }
        var lines = [TextStyle.bold.apply(to: line(("ID", "DUE", "TITLE")), isStyled: context.isStyled)]
        lines += rows.map(line)
        let total = found.info.total.map { " of \($0)" } ?? ""
        lines.append(TextStyle.dim.apply(to: "\(found.items.count)\(total) waiting · confirm with: intranet ack ID", isStyled: context.isStyled))
        await session.writeLines(lines)
    }
}

/// `intranet reach ID [--csv]`: who an announcement reached, for editors.
struct ReachCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "reach",
        abstract: "Show who an announcement reached: audience, confirmed, pending, overdue and opened, per department (editors).",
        discussion: """
            With --csv, the named list instead: one line per person of the audience (name, \
            email, department, when they confirmed), for a spreadsheet.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    @Flag(help: "Print the named list as CSV.")
    var csv = false

    func validate() throws {
        if id < 1 { throw ValidationError("the id must be 1 or more") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        if csv {
            let data = try await session.perform("announcement \(id)") {
                try await session.client.acknowledgements.reachCSV(id)
            }
            await session.io.write(String(decoding: data, as: UTF8.self))
            return
        }
        let report = try await session.perform("announcement \(id)") {
            try await session.client.acknowledgements.reach(id)
        }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
            return
        }
        await session.writeLines(ReachTable(width: context.width, isStyled: context.isStyled).lines(for: report, id: id))
    }
}

extension CommandSession {
    /// Sends the confirmations kept on this machine for the signed-in user, saying what became
    /// of each on standard error; those that still cannot reach the server stay.
    func sendQueuedAcknowledgements() async {
        for (id, result) in await client.acknowledgements.sendQueued().sorted(by: { $0.key < $1.key }) {
            switch result {
            case .success(let receipt):
                await io.writeError("Sent your confirmation of announcement \(id), kept on this machine (round \(receipt.round)).\n")
            case .failure(let error):
                await io.writeError("Your confirmation of announcement \(id), kept on this machine, was refused: \(error.userMessage)\n")
            }
        }
    }
}
