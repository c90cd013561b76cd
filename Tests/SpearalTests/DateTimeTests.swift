import Foundation
import Spearal
import Testing

@Suite("Date and time values")
struct DateTimeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let value: SpearalDateTime
        let hex: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a date before 2000 uses a negative year offset",
             value: SpearalDateTime(year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 59), hex: "7c8c1f01173b3b"),
        Case(name: "a date only (java.sql.Date) has no time part",
             value: .date(year: 2014, month: 11, day: 20), hex: "780b140e"),
        Case(name: "a time only (java.sql.Time) has no date part",
             value: .time(hour: 10, minute: 30, second: 15), hex: "740a1e0f"),
        Case(name: "microseconds use unit 2",
             value: SpearalDateTime(year: 2014, month: 11, day: 20, hour: 10, minute: 30, second: 15, nanosecond: 123_456_000),
             hex: "7e0b140e4a1e0f01e240"),
        Case(name: "nanoseconds use unit 1",
             value: .time(hour: 0, minute: 0, second: 1, nanosecond: 5), hex: "7500000105"),
        Case(name: "a year far in the past takes two offset bytes",
             value: .date(year: 1000, month: 1, day: 1), hex: "7891 01 03e8"),
    ]

    @Test("dates encode and decode with the Java layout", arguments: cases)
    func dateLayout(testCase: Case) throws {
        let expected = Hex.string(Data(Hex.bytes(testCase.hex)))

        let hex = try Codec.encode(.dateTime(testCase.value))
        let decoded = try Codec.decode(testCase.hex)

        #expect(hex == expected)
        #expect(decoded == .dateTime(testCase.value))
    }

    @Test("a Date converts to UTC fields and back to the same millisecond")
    func foundationDateRoundTrips() throws {
        let date = Date(timeIntervalSince1970: 1_416_479_415.123)

        let fields = SpearalDateTime(date)
        let back = fields.date

        #expect(fields == SpearalDateTime(year: 2014, month: 11, day: 20, hour: 10, minute: 30, second: 15, nanosecond: 123_000_000))
        #expect(abs(back.timeIntervalSince(date)) < 0.000_001)
    }

    @Test("dates before 1970 convert through the proleptic calendar")
    func datesBeforeEpochConvert() {
        let date = Date(timeIntervalSince1970: -86_400 * 365 - 1)

        let fields = SpearalDateTime(date)

        #expect(fields == SpearalDateTime(year: 1968, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(fields.date == date)
    }
}
