import Foundation
import IntranetAPI

/// The publishing properties of a request body (API 3.0's `status`, `publishAt`, `expiresAt`,
/// `pinned`, `pinnedUntil`, `important`, `audience`), each validated: a property not sent keeps
/// the stored value, `null` clears a time or the audience.
struct PublishingInput: Sendable {
    /// A property's new value, when the body sent it.
    typealias Setting<Value> = Value?

    var status: Setting<AnnouncementStatus>
    var publishAt: Setting<Date?>
    var expiresAt: Setting<Date?>
    var pinned: Setting<Bool>
    var pinnedUntil: Setting<Date?>
    var important: Setting<Bool>
    /// `.some(nil)`: the audience is removed.
    var audience: Setting<AnnouncementAudience?>

    /// Reads the properties from `object`, recording a field error for each unusable one.
    init(_ object: [String: JSONValue], errors: inout [Problem.FieldError]) {
        status = Self.status(object["status"], errors: &errors)
        publishAt = Self.instant(object["publishAt"], field: "publishAt", errors: &errors)
        expiresAt = Self.instant(object["expiresAt"], field: "expiresAt", errors: &errors)
        pinned = Self.flag(object["pinned"], field: "pinned", errors: &errors)
        pinnedUntil = Self.instant(object["pinnedUntil"], field: "pinnedUntil", errors: &errors)
        important = Self.flag(object["important"], field: "important", errors: &errors)
        audience = Self.audience(object["audience"], errors: &errors)
    }

    /// `current` with the properties sent.
    func applied(to current: AnnouncementV3.Publishing) -> AnnouncementV3.Publishing {
        var publishing = current
        if let status { publishing.status = status }
        if let publishAt { publishing.publishAt = publishAt }
        if let expiresAt { publishing.expiresAt = expiresAt }
        if let pinned { publishing.pinned = pinned }
        if let pinnedUntil { publishing.pinnedUntil = pinnedUntil }
        if let important { publishing.important = important }
        return publishing
    }

    private static func status(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> Setting<AnnouncementStatus> {
        guard let value else { return nil }
        if case .string(let text) = value, let status = AnnouncementStatus(rawValue: text) { return status }
        errors.append(Problem.FieldError(field: "status", message: "must be \"draft\" or \"published\""))
        return nil
    }

    private static func flag(_ value: JSONValue?, field: String, errors: inout [Problem.FieldError]) -> Setting<Bool> {
        guard let value else { return nil }
        if case .bool(let flag) = value { return flag }
        errors.append(Problem.FieldError(field: field, message: "must be true or false, not \(value.typeName)"))
        return nil
    }

    private static func instant(_ value: JSONValue?, field: String, errors: inout [Problem.FieldError]) -> Setting<Date?> {
        switch value {
        case nil: return nil
        case .null?: return .some(nil)
        case .string(let text)?:
            guard let date = strictInstant(text) else {
                errors.append(Problem.FieldError(field: field, message: "must be an RFC 3339 instant with a zone, like 2026-12-07T08:00:00+01:00"))
                return nil
            }
            if let problem = AnnouncementRules.instantProblem(date) {
                errors.append(Problem.FieldError(field: field, message: problem))
                return nil
            }
            // Kept to the millisecond, the precision the API shows.
            return .some(FluentAnnouncementRepository.millisecondPrecision(date))
        case let other?:
            errors.append(Problem.FieldError(field: field, message: "must be an RFC 3339 instant or null, not \(other.typeName)"))
            return nil
        }
    }

    /// An RFC 3339 instant with a zone, whose day and time exist as written: the parser alone
    /// would move 30 February to 2 March.
    static func strictInstant(_ text: String) -> Date? {
        guard let date = IntranetJSON.parseDate(text) else { return nil }
        let characters = Array(text.utf8)
        guard characters.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            Int(String(decoding: characters[range], as: UTF8.self))
        }
        // The offset the text was written in: `Z`, or `±hh:mm` at its end.
        var offset = 0
        if characters.last != UInt8(ascii: "Z"), characters.last != UInt8(ascii: "z") {
            let sign = characters[characters.count - 6]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                let hours = number(characters.count - 5..<characters.count - 3), let minutes = number(characters.count - 2..<characters.count)
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard parts.year == year, parts.month == month, parts.day == day, parts.hour == hour, parts.minute == minute else { return nil }
        return date
    }

    private static func audience(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> Setting<AnnouncementAudience?> {
        switch value {
        case nil: return nil
        case .null?: return .some(nil)
        case .object(let object)?:
            let unknown = object.keys.filter { $0 != "departments" && $0 != "teams" }.sorted()
            if !unknown.isEmpty {
                errors.append(Problem.FieldError(field: "audience", message: "has unknown keys: \(unknown.joined(separator: ", "))"))
                return nil
            }
            let departments = departments(object["departments"], errors: &errors)
            let teams = teams(object["teams"], errors: &errors)
            guard let departments, let teams else { return nil }
            return .some(AnnouncementAudience(departments: departments, teams: teams))
        case let other?:
            errors.append(Problem.FieldError(field: "audience", message: "must be an object with departments and teams, or null, not \(other.typeName)"))
            return nil
        }
    }

    /// The department names, trimmed, without repeats (ignoring ASCII case), in the order given.
    private static func departments(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> [String]? {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            errors.append(Problem.FieldError(field: "audience.departments", message: "must be a list of department names"))
            return nil
        }
        guard items.count <= AnnouncementRules.maxAudienceEntries else {
            errors.append(Problem.FieldError(field: "audience.departments", message: "must name at most \(AnnouncementRules.maxAudienceEntries) departments"))
            return nil
        }
        var names: [String] = []
        var seen = Set<String>()
        for item in items {
            guard case .string(let text) = item else {
                errors.append(Problem.FieldError(field: "audience.departments", message: "must be a list of department names"))
                return nil
            }
            let name = AnnouncementRules.normalizedTitle(text)
            guard !name.isEmpty, name.unicodeScalars.count <= AnnouncementRules.maxDepartmentCodePoints,
                !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                errors.append(Problem.FieldError(
                    field: "audience.departments",
                    message: "each name must have 1–\(AnnouncementRules.maxDepartmentCodePoints) characters and no control characters"))
                return nil
            }
            if seen.insert(name.lowercased()).inserted { names.append(name) }
        }
        return names
    }

    /// The team heads' person ids, sorted, without repeats.
    private static func teams(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> [Int]? {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            errors.append(Problem.FieldError(field: "audience.teams", message: "must be a list of person ids"))
            return nil
        }
        guard items.count <= AnnouncementRules.maxAudienceEntries else {
            errors.append(Problem.FieldError(field: "audience.teams", message: "must name at most \(AnnouncementRules.maxAudienceEntries) teams"))
            return nil
        }
        var ids = Set<Int>()
        for item in items {
            guard case .number(let number) = item, number >= 1, number <= Double(Int32.max), number.rounded() == number else {
                errors.append(Problem.FieldError(field: "audience.teams", message: "must be a list of person ids"))
                return nil
            }
            ids.insert(Int(number))
        }
        return ids.sorted()
    }
}
