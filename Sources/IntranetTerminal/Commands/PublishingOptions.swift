import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository

/// The publishing options of `create` and `update`: status, times (in the terminal's local
/// time unless a zone is given), pin, importance and audience. Only what is given is sent.
struct PublishingOptions: ParsableArguments, Sendable {
    @Flag(help: "Save as a draft: only editors and admins see it.")
    var draft = false

    @Flag(help: "Publish it (a draft becomes visible to its readers, at --publish-at if given).")
    var publish = false

    @Option(help: ArgumentHelp(
        "When readers first see it: \"2026-12-07 08:00\" in local time, an RFC 3339 instant, or none for at once.",
        valueName: "time"))
    var publishAt: String?

    @Option(help: ArgumentHelp("When readers stop seeing it (same forms; none for never).", valueName: "time"))
    var expiresAt: String?

    @Flag(help: "Pin it: pinned announcements come first in every list.")
    var pin = false

    @Flag(help: "Unpin it.")
    var unpin = false

    @Option(help: ArgumentHelp("When the pin ends (same forms; none for never).", valueName: "time"))
    var pinnedUntil: String?

    @Flag(help: "Mark it important.")
    var important = false

    @Flag(help: "Remove the important mark.")
    var notImportant = false

    @Option(help: ArgumentHelp(
        "Address it to department:NAME or team:PERSON-ID (the person and everyone under them); repeat for more, none for no audience.",
        valueName: "audience"))
    var audience: [String] = []

    /// Whether any option was given.
    var isGiven: Bool {
        draft || publish || publishAt != nil || expiresAt != nil || pin || unpin || pinnedUntil != nil || important || notImportant
            || !audience.isEmpty
    }

    func validate() throws {
        if draft, publish { throw ValidationError("--draft and --publish contradict each other; give one") }
        if pin, unpin { throw ValidationError("--pin and --unpin contradict each other; give one") }
        if important, notImportant { throw ValidationError("--important and --not-important contradict each other; give one") }
        if audience.contains("none"), audience.count > 1 { throw ValidationError("--audience none removes the audience; give it alone") }
        for entry in audience where entry != "none" { _ = try Self.audienceEntry(entry) }
        for (name, text) in [("--publish-at", publishAt), ("--expires-at", expiresAt), ("--pinned-until", pinnedUntil)] {
            if let text { _ = try Self.time(text, option: name) }
        }
    }

    /// The options as a patch (only what was given).
    func patch() throws -> AnnouncementPatch {
        AnnouncementPatch(
            status: draft ? .draft : (publish ? .published : nil),
            publishAt: try Self.field(publishAt, option: "--publish-at"),
            expiresAt: try Self.field(expiresAt, option: "--expires-at"),
            pinned: pin ? true : (unpin ? false : nil),
            pinnedUntil: try Self.field(pinnedUntil, option: "--pinned-until"),
            important: important ? true : (notImportant ? false : nil),
            audience: try audienceField())
    }

    /// `draft` with the options applied (for `create`, where "none" means the default).
    func applied(to draft: AnnouncementDraft) throws -> AnnouncementDraft {
        var draft = draft
        draft.status = self.draft ? .draft : (publish ? .published : nil)
        draft.publishAt = try publishAt.flatMap { try Self.time($0, option: "--publish-at") }
        draft.expiresAt = try expiresAt.flatMap { try Self.time($0, option: "--expires-at") }
        draft.pinned = pin ? true : nil
        draft.pinnedUntil = try pinnedUntil.flatMap { try Self.time($0, option: "--pinned-until") }
        draft.important = important ? true : nil
        if case .value(let audience) = try audienceField() { draft.audience = audience }
        return draft
    }

    private func audienceField() throws -> PatchField<AnnouncementAudience> {
        guard !audience.isEmpty else { return .absent }
        if audience == ["none"] { return .null }
        var result = AnnouncementAudience()
        for entry in audience {
            switch try Self.audienceEntry(entry) {
            case .department(let name): result.departments.append(name)
            case .team(let id): result.teams.append(id)
            }
        }
        return .value(result)
    }

    private enum AudienceEntry {
        case department(String)
        case team(Int)
    }

    private static func audienceEntry(_ text: String) throws -> AudienceEntry {
        if text.hasPrefix("department:"), text.count > "department:".count {
            return .department(String(text.dropFirst("department:".count)))
        }
        if text.hasPrefix("team:"), let id = Int(text.dropFirst("team:".count)), id > 0 {
            return .team(id)
        }
        throw ValidationError("--audience must be department:NAME or team:PERSON-ID (or none), not “\(text)”")
    }

    private static func field(_ text: String?, option: String) throws -> PatchField<Date> {
        guard let text else { return .absent }
        return try time(text, option: option).map(PatchField.value) ?? .null
    }

    /// A time as typed: `none` (nil), an RFC 3339 instant, or a local date and time.
    static func time(_ text: String, option: String) throws -> Date? {
        if text == "none" { return nil }
        if let date = LocalTime.parse(text) { return date }
        throw ValidationError("\(option) must be like \"2026-12-07 08:00\" (local time), 2026-12-07T08:00:00+01:00, or none; not “\(text)”")
    }
}
