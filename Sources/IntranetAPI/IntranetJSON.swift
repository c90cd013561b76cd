import Foundation

/// JSON coders configured for the intranet API: RFC 3339 UTC dates with milliseconds
/// (`2026-11-21T09:30:00.000Z`).
public enum IntranetJSON {
    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let lenientDateStyle = Date.ISO8601FormatStyle()

    /// A fresh encoder writing dates as RFC 3339 with milliseconds and keys in sorted order, so
    /// equal values always give equal bytes (and equal `ETag`s on every server instance).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(format(date))
        }
        return encoder
    }

    /// A fresh decoder reading RFC 3339 dates with or without fractional seconds.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not an RFC 3339 date: \(text)")
            }
            return date
        }
        return decoder
    }

    /// Formats a date the way the API sends it: UTC, rounded to the nearest millisecond.
    public static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, millisecond) = floorDivision(milliseconds, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay % 3600 / 60, 2)):\(padded(secondOfDay % 60, 2))"
            + ".\(padded(millisecond, 3))Z"
    }

    /// `value` divided by `divisor`, rounding towards negative infinity, and the remainder.
    package static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
    package static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Parses an RFC 3339 date with or without fractional seconds.
    ///
    /// The result is kept to the microsecond counted from 1970, so a date read as JSON equals
    /// the same instant read as Spearal and the server's own stored value (Foundation's parser
    /// rounds from 2001, which can land one step of a `Double` away).
    public static func parseDate(_ text: String) -> Date? {
        guard let parsed = (try? dateStyle.parse(text)) ?? (try? lenientDateStyle.parse(text)) else { return nil }
        return Date(timeIntervalSince1970: (parsed.timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000)
    }
}
