import Foundation
import IntranetAPI

/// Times as a person at this terminal reads and types them: in the local time zone (`TZ`).
public enum LocalTime {
    /// Reads `2026-12-07 08:00` (or with `T`, or with seconds) in `zone`, or an RFC 3339
    /// instant with its own zone; `nil` for anything else.
    ///
    /// - Parameters:
    ///   - text: what was typed.
    ///   - zone: the zone of a time typed without one.
    public static func parse(_ text: String, in zone: TimeZone = .current) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let instant = IntranetJSON.parseDate(trimmed) { return instant }
        return LocalDateTime.parse(trimmed, in: zone)
    }

    /// A time as `2026-12-07 08:00 UTC` in `zone` (its abbreviation, or its offset when it has
    /// none).
    public static func format(_ date: Date, in zone: TimeZone = .current) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: zone, from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let name: String
        if zone.secondsFromGMT(for: date) == 0, ["GMT", "UTC", "Etc/UTC", "Etc/GMT", "Universal", "Zulu"].contains(zone.identifier) {
            name = "UTC"
        } else {
            name = zone.abbreviation(for: date) ?? zone.identifier
        }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)) \(name)"
    }

    /// The time of day of `date` in `zone`, as `14:03:07`.
    public static func clock(_ date: Date, in zone: TimeZone = .current) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: zone, from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
