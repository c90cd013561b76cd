import Foundation

/// A date and time as a person types it, without a zone (`2026-12-07 08:00`,
/// `2026-12-07T08:00:30`): read in the zone of whoever typed it (the terminal's `TZ`, the
/// site's zone for the web form).
public enum LocalDateTime {
    /// The instant `text` names in `zone`, or `nil` when it is not a date and a time of day
    /// that exist (`2030-02-30 08:00` is refused, not moved to March).
    public static func parse(_ text: String, in zone: TimeZone) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard day.count == 3, (2...3).contains(time.count), !day.contains(nil), !time.contains(nil) else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = zone
        (components.year, components.month, components.day) = (day[0], day[1], day[2])
        (components.hour, components.minute, components.second) = (time[0], time[1], time.count == 3 ? time[2] : 0)
        guard components.isValidDate else { return nil }
        return components.date
    }
}
