import Foundation
import HTTPTypes
import IntranetAPI

/// `Date` header values (RFC 9110 IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT"), formatted at
/// most once a second.
struct HTTPDateClock {
    private var second = Int64.min
    private var value = ""

    /// The current time as an HTTP date.
    mutating func now() -> String {
        let second = Int64(Date().timeIntervalSince1970.rounded(.down))
        if second != self.second {
            self.second = second
            value = Self.format(secondsSince1970: second)
        }
        return value
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats a UTC time given in seconds since 1970.
    static func format(secondsSince1970 seconds: Int64) -> String {
        let (days, secondOfDay) = IntranetJSON.floorDivision(seconds, 86_400)
        let (year, month, day) = IntranetJSON.civilDate(daysSinceEpoch: days)
        let weekday = Int(IntranetJSON.floorDivision(days + 4, 7).1)  // 1970-01-01 was a Thursday
        return "\(weekdays[weekday]), \(twoDigits(day)) \(months[Int(month) - 1]) \(year) "
            + "\(twoDigits(secondOfDay / 3_600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}

/// `X-Request-Id` values for the answers one connection gives without the application: a random
/// 64-bit prefix per connection and a counter, in 32 hex digits (the application's own are hex
/// too).
struct RequestIdentifiers {
    /// The id a proxy sent in `X-Request-Id`, when it is short (1–64 bytes) and plain (ASCII
    /// letters, digits, `-`, `_`); such an id is used instead of a new one.
    static func proxied(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        return value
    }

    private let prefix = Self.hex(UInt64.random(in: .min ... .max))
    private var counter = UInt64.random(in: .min ... .max)

    mutating func next() -> String {
        counter &+= 1
        return prefix + Self.hex(counter)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// What an answer given on the event loop carries, as the application's answers do: the
/// request's `X-Request-Id` (a proxy's plain one, or a new one) and the `Date`. One per
/// connection, made when its first such answer is.
struct EarlyAnswerStamps {
    private var dates = HTTPDateClock()
    private var requestIDs: RequestIdentifiers?

    /// Sets both headers of `head` for an answer to a request that sent `requestID`; returns the
    /// id.
    mutating func stamp(_ head: inout HTTPResponse, requestID: String?) -> String {
        let id = RequestIdentifiers.proxied(requestID) ?? next()
        head.headerFields[.requestID] = id
        head.headerFields[.date] = dates.now()
        return id
    }

    private mutating func next() -> String {
        if requestIDs == nil { requestIDs = RequestIdentifiers() }
        return requestIDs!.next()
    }
}
