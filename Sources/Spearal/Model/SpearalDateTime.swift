/// A UTC date, time of day, or both, with nanosecond resolution (format type DATE_TIME).
///
/// spearal-java sends `java.sql.Date` as date only, `java.sql.Time` as time only, and other
/// dates as date and time. All fields are UTC. The encoder writes the sub-second part in the
/// coarsest unit (milliseconds, microseconds or nanoseconds) that represents
/// ``nanosecond`` exactly, and omits it when it is zero.
public struct SpearalDateTime: Hashable, Sendable {
    /// Whether ``year``, ``month`` and ``day`` are sent.
    public var hasDate: Bool
    /// Whether ``hour``, ``minute``, ``second`` and ``nanosecond`` are sent.
    public var hasTime: Bool
    /// The proleptic Gregorian year (negative for BC years, as Java's offsets).
    public var year: Int
    /// The month, 1...12.
    public var month: Int
    /// The day of the month, 1...31.
    public var day: Int
    /// The hour, 0...23.
    public var hour: Int
    /// The minute, 0...59.
    public var minute: Int
    /// The second, 0...59.
    public var second: Int
    /// The fraction of the second in nanoseconds, 0..<1_000_000_000.
    public var nanosecond: Int

    /// Creates a date and time.
    /// - Parameters:
    ///   - year: the year; `month` 1...12; `day` 1...31.
    ///   - month: the month, 1...12.
    ///   - day: the day of the month.
    ///   - hour: the hour, 0...23.
    ///   - minute: the minute.
    ///   - second: the second.
    ///   - nanosecond: the sub-second part in nanoseconds.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0) {
        self.init(hasDate: true, hasTime: true, year: year, month: month, day: day,
                  hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    /// Creates a date without a time of day (like `java.sql.Date`).
    /// - Parameters:
    ///   - year: the year.
    ///   - month: the month, 1...12.
    ///   - day: the day of the month.
    public static func date(year: Int, month: Int, day: Int) -> SpearalDateTime {
        SpearalDateTime(hasDate: true, hasTime: false, year: year, month: month, day: day,
                        hour: 0, minute: 0, second: 0, nanosecond: 0)
    }

    /// Creates a time of day without a date (like `java.sql.Time`).
    /// - Parameters:
    ///   - hour: the hour, 0...23.
    ///   - minute: the minute.
    ///   - second: the second.
    ///   - nanosecond: the sub-second part in nanoseconds.
    public static func time(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) -> SpearalDateTime {
        SpearalDateTime(hasDate: false, hasTime: true, year: 2000, month: 1, day: 1,
                        hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    /// Memberwise initializer shared by the factory methods and the decoder.
    init(hasDate: Bool, hasTime: Bool, year: Int, month: Int, day: Int,
         hour: Int, minute: Int, second: Int, nanosecond: Int) {
        self.hasDate = hasDate
        self.hasTime = hasTime
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }

    /// Whether every field is in its range, so the value can be written.
    var isValid: Bool {
        let dateValid = !hasDate || ((1...12).contains(month) && (1...31).contains(day)
            && abs(year - 2000) <= 0xFFFF_FFFF)
        let timeValid = !hasTime || ((0...23).contains(hour) && (0...59).contains(minute)
            && (0...59).contains(second) && (0..<1_000_000_000).contains(nanosecond))
        return dateValid && timeValid
    }
}
