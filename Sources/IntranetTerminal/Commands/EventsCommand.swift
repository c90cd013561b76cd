import ArgumentParser
import Foundation
import IntranetClient
import RESTRepository

/// `intranet events [--last-event-id ID]`: the server's live stream of changes, one line each,
/// until interrupted or the session ends.
struct EventsCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print what changes on the server as it happens, until interrupted (Ctrl-C).",
        discussion: """
            One line per change among the announcements and people you may read: the time, the \
            kind (announcement.created, announcement.changed, announcement.deleted, \
            person.changed, reset), the id and the new ETag. With --output json, one JSON \
            object per line, for scripts: {"event":…,"id":…,"etag":…,"eventId":…}. Reconnects \
            by itself when the server restarts and resumes where it was; --last-event-id resumes \
            after an eventId an earlier run printed.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("last-event-id"), help: ArgumentHelp("Resume after this event (an eventId printed before).", valueName: "id"))
    var lastEventID: String?

    func validate() throws {
        if global.output == .spearal { throw ValidationError("events prints lines or JSON lines: use --output table or json") }
        if let lastEventID, lastEventID.utf8.count > 64 { throw ValidationError("--last-event-id is at most 64 characters") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        try await session.perform("the live stream") {
            for try await change in session.client.changes(resumingAfter: lastEventID) {
                await session.writeLines([session.printsRaw ? Self.json(change) : Self.line(change)])
            }
        }
    }

    /// `14:03:07  announcement.created  #12  "12.1.v2"`.
    static func line(_ change: LiveChange) -> String {
        var parts = [LocalTime.clock(Date()), change.kind.rawValue]
        if let id = change.id { parts.append("#\(id)") }
        if let etag = change.etag { parts.append(etag) }
        return parts.joined(separator: "  ")
    }

    /// One JSON object: `event`, `id`, `etag` (when known) and `eventId`.
    static func json(_ change: LiveChange) -> String {
        var object: [String: Any] = ["event": change.kind.rawValue]
        if let id = change.id { object["id"] = id }
        if let etag = change.etag { object["etag"] = etag }
        if let eventID = change.eventID { object["eventId"] = eventID }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
