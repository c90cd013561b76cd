import Foundation
import IntranetAPI

/// The publishing part of the editor's form (status, times in the site's zone, pin,
/// importance, audience) and how pages show it.
enum WebPublishingForm {
    /// The form's publishing fields as the API's JSON. Times come from `datetime-local` inputs
    /// (`2026-12-07T08:00`) read in the zone the form was filled in (``zone(of:site:)``); an empty one is `null`, one that cannot be read is
    /// passed on as typed, so that validation names its field. A checkbox absent is `false`.
    /// Departments are one per line (a name may hold a comma); teams are person ids separated
    /// by commas or spaces. With neither, the audience is none (everyone), or empty (editors
    /// only) when *Editors only* is ticked.
    static func json(_ form: [String: String], site: TimeZone) -> [String: JSONValue] {
        let zone = zone(of: form, site: site)
        var object: [String: JSONValue] = [
            "status": .string(form["status"] == "draft" ? "draft" : "published"),
            "pinned": .bool(form["pinned"] != nil),
            "important": .bool(form["important"] != nil),
        ]
        for name in ["publishAt", "expiresAt", "pinnedUntil"] {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                object[name] = .null
            } else if let date = LocalDateTime.parse(text, in: zone) {
                object[name] = .string(IntranetJSON.format(date))
            } else {
                object[name] = .string(text)
            }
        }
        let departments = lines(form["departments"])
        let teams = list(form["teams"])
        if departments.isEmpty, teams.isEmpty {
            object["audience"] = form["editorsOnly"] != nil ? .object(["departments": .array([]), "teams": .array([])]) : .null
        } else {
            object["audience"] = .object([
                "departments": .array(departments.map(JSONValue.string)),
                // A team that is not a number is passed on as text: validation names the field.
                "teams": .array(teams.map { Int($0).map { .number(Double($0)) } ?? .string($0) }),
            ])
        }
        if form["acknowledgementFields"] != nil {
            object["acknowledgement"] = acknowledgementJSON(form, zone: zone)
        }
        return object
    }

    /// The acknowledgement part of the form: `null` unless *Readers must confirm* is ticked;
    /// the due date read like the other times.
    private static func acknowledgementJSON(_ form: [String: String], zone: TimeZone) -> JSONValue {
        guard form["ackRequired"] != nil else { return .null }
        var asked: [String: JSONValue] = ["required": .bool(true), "newRound": .bool(form["ackNewRound"] != nil)]
        let due = (form["ackDueAt"] ?? "").trimmingCharacters(in: .whitespaces)
        if due.isEmpty {
            asked["dueAt"] = .null
        } else {
            asked["dueAt"] = .string(LocalDateTime.parse(due, in: zone).map(IntranetJSON.format) ?? due)
        }
        return .object(asked)
    }

    /// The form's values for an announcement (or a new one) at `now` (a pin that ended is shown
    /// unticked).
    static func values(_ item: StoredAnnouncement?, zone: TimeZone, at now: Date = Date()) -> [String: Any] {
        let publishing = item?.shownPublishing(at: now) ?? AnnouncementV3.Publishing()
        var values: [String: Any] = [
            "isDraft": publishing.status == .draft,
            "pinnedChecked": publishing.pinned,
            "importantChecked": publishing.important,
            "publishAt": field(publishing.publishAt, zone: zone),
            "expiresAt": field(publishing.expiresAt, zone: zone),
            "pinnedUntil": field(publishing.pinnedUntil, zone: zone),
            "departmentsValue": item?.audience?.departments.joined(separator: "\n") ?? "",
            "editorsOnlyChecked": item?.audience?.isEmpty ?? false,
            "teamsValue": item?.audience?.teams.map(String.init).joined(separator: ", ") ?? "",
            "zoneName": zoneName(zone),
            // New announcements are written in Markdown unless the editor chooses HTML.
            "isMarkdown": item.map { $0.markdown != nil } ?? true,
            "ackRequiredChecked": item?.acknowledgement.required ?? false,
            "ackDueAt": field(item?.acknowledgement.dueAt, zone: zone),
        ]
        if let round = item?.acknowledgement.round, round > 0 {
            values["ackRound"] = round
            values["ackNextRound"] = round + 1
        }
        values["isPublished"] = !(values["isDraft"] as? Bool ?? false)
        return values
    }

    /// The form's values as the editor sent them (shown again with the errors), its times in the
    /// zone it was filled in (``zone(of:site:)``).
    static func values(_ form: [String: String], site: TimeZone) -> [String: Any] {
        let zone = zone(of: form, site: site)
        var values: [String: Any] = [
            "isDraft": form["status"] == "draft", "isPublished": form["status"] != "draft",
            "pinnedChecked": form["pinned"] != nil, "importantChecked": form["important"] != nil,
            "publishAt": field(form["publishAt"], zone: zone), "expiresAt": field(form["expiresAt"], zone: zone),
            "pinnedUntil": field(form["pinnedUntil"], zone: zone), "departmentsValue": form["departments"] ?? "",
            "editorsOnlyChecked": form["editorsOnly"] != nil,
            "teamsValue": form["teams"] ?? "", "zoneName": zoneName(zone), "isMarkdown": form["format"] == "markdown",
            "ackRequiredChecked": form["ackRequired"] != nil, "ackDueAt": field(form["ackDueAt"], zone: zone),
            "ackNewRoundChecked": form["ackNewRound"] != nil,
        ]
        if let round = form["ackRound"].flatMap({ Int($0) }), round > 0, round < Int(Int32.max) {
            values["ackRound"] = round
            values["ackNextRound"] = round + 1
        }
        return values
    }

    /// What list and detail pages show of an announcement's publishing at `now`: marks, times
    /// in `zone`, and for editors a warning when its audience reaches no one.
    static func display(_ item: StoredAnnouncement, at now: Date, zone: TimeZone) -> [String: Any] {
        let publishing = item.publishing
        var display: [String: Any] = [:]
        if item.isPinned(at: now) { display["pinned"] = true }
        if publishing.important { display["important"] = true }
        if publishing.status == .draft { display["draft"] = true }
        if let publishAt = publishing.publishAt, publishAt > now {
            display["scheduled"] = ["iso": WebPages.iso(publishAt), "text": WebPages.text(publishAt, zone: zone)]
        }
        if let expiresAt = publishing.expiresAt {
            display[expiresAt > now ? "expires" : "expired"] = ["iso": WebPages.iso(expiresAt), "text": WebPages.text(expiresAt, zone: zone)]
        }
        let namesNobody = item.readers.map(\.isEmpty) ?? true
        if let audience = item.audience, audience.isEmpty, namesNobody { display["emptyAudience"] = true }
        if item.acknowledgement.required { display["asksAcknowledgement"] = true }
        if let audience = item.audience, !audience.isEmpty {
            display["audienceText"] =
                (audience.departments + audience.teams.map { "team of person \($0)" }).joined(separator: ", ")
        }
        return display
    }

    /// The zone a form's times are read in: the one the page's script set (the browser's), when
    /// it names a zone this machine knows, otherwise the site's.
    static func zone(of form: [String: String], site: TimeZone) -> TimeZone {
        guard let name = form["zone"], name.utf8.count <= 64, let zone = TimeZone(identifier: name) else { return site }
        return zone
    }

    /// A time input's values: the text shown in `zone`, and the instant it stands for (which the
    /// page's script shows again in the browser's zone), when there is one.
    private static func field(_ date: Date?, zone: TimeZone) -> [String: String] {
        guard let date else { return ["value": ""] }
        return ["value": inputValue(date, zone: zone), "instant": WebPages.iso(date)]
    }

    /// A time input's values as the editor typed them, read in `zone`.
    private static func field(_ text: String?, zone: TimeZone) -> [String: String] {
        let text = text ?? ""
        guard let date = LocalDateTime.parse(text.trimmingCharacters(in: .whitespaces), in: zone) else { return ["value": text] }
        return ["value": text, "instant": WebPages.iso(date)]
    }

    /// The zone as the form names it: `UTC` rather than Foundation's `GMT` for UTC.
    static func zoneName(_ zone: TimeZone) -> String {
        ["GMT", "UTC", "Etc/UTC", "Etc/GMT"].contains(zone.identifier) ? "UTC" : zone.identifier
    }

    private static func list(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
    }

    private static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A date as a `datetime-local` input's value in `zone`, with its seconds when it has some
    /// (so that saving the form does not move a time set to the second through the API).
    static func inputValue(_ date: Date, zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let text = formatter.string(from: date)
        return text.hasSuffix(":00") ? String(text.dropLast(3)) : text
    }
}
