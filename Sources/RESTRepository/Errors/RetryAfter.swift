import Foundation

/// Reads the `Retry-After` header (RFC 9110 §10.2.3): delay seconds or an HTTP date.
public enum RetryAfter {
    /// The delay a `Retry-After` value asks for, or `nil` when the value is neither form.
    ///
    /// - Parameters:
    ///   - value: the header value, e.g. `120` or `Wed, 21 Oct 2015 07:28:00 GMT`.
    ///   - now: the current time, for the date form.
    /// - Returns: the delay, never negative.
    public static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = httpDate(trimmed) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
