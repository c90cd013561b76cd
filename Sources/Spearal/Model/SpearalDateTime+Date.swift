import Foundation

extension SpearalDateTime {
    /// Creates the UTC date and time of `date`, rounded to the microsecond.
    ///
    /// `Date` stores a `Double`, so the rounding keeps the millisecond values a Java server
    /// sends exact (`.123` does not become `.122999999`). Dates beyond about ±285,000 years are
    /// clamped, and a NaN date becomes 1970-01-01 (the `Codable` bridge rejects it instead).
    /// - Parameter date: the instant to convert.
    public init(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        let micros = (seconds * 1_000_000).rounded()
        let clamped = micros.isNaN ? 0 : Swift.max(Swift.min(micros, 9.0e18), -9.0e18)
        let totalMicros = Int64(clamped)
        let (days, microOfDay) = Self.floorDivide(totalMicros, 86_400_000_000)
        let (year, month, day) = Self.civil(fromDays: days)
        let secondOfDay = Int(microOfDay / 1_000_000)
        self.init(hasDate: true, hasTime: true, year: year, month: month, day: day,
                  hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60,
                  nanosecond: Int(microOfDay % 1_000_000) * 1000)
    }

    /// The instant this value denotes in UTC; a missing date is 1970-01-01, a missing time is midnight.
    ///
    /// Whole microseconds (every millisecond a server sends) give the `Date` whose
    /// `timeIntervalSince1970` is the double nearest the exact instant, as
    /// `Date(timeIntervalSince1970: 1_416_479_415.123)` is: one exact integer, one correctly
    /// rounded division, so equal instants always make equal dates.
    public var date: Date {
        let days = hasDate ? Self.days(fromCivil: year, month: month, day: day) : 0
        let secondOfDay = hasTime ? hour * 3600 + minute * 60 + second : 0
        let nanos = hasTime ? nanosecond : 0
        let seconds = Int64(days) * 86_400 + Int64(secondOfDay)
        let (micros, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if nanos % 1000 == 0, !overflow, abs(micros) < 1 << 53 {
            return Date(timeIntervalSince1970: Double(micros + Int64(nanos / 1000)) / 1_000_000)
        }
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1_000_000_000)
    }

    /// Division rounding toward negative infinity, with a non-negative remainder.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil calendar algorithm).
    private static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// A proleptic Gregorian date to days since 1970-01-01.
    private static func days(fromCivil year: Int, month: Int, day: Int) -> Int {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
