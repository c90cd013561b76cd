import Foundation
import IntranetAPI
import Testing

@Suite("Dates on the wire")
struct IntranetJSONTests {
    @Test("dates are RFC 3339 UTC with milliseconds", arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_795_253_400.123, "2026-11-21T09:30:00.123Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (-1.0, "1969-12-31T23:59:59.000Z"),
        (1_795_253_400.9996, "2026-11-21T09:30:01.000Z"),
    ])
    func format(seconds: Double, text: String) {
        #expect(IntranetJSON.format(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test("a date survives encoding and decoding to the millisecond")
    func roundTrip() throws {
        let detail = AnnouncementV2.Detail(
            id: 1, title: "t", body: nil,
            createdAt: Date(timeIntervalSince1970: 1_795_253_400.123),
            updatedAt: Date(timeIntervalSince1970: 1_795_253_400.999))

        let data = try IntranetJSON.encoder().encode(detail)
        let decoded = try IntranetJSON.decoder().decode(AnnouncementV2.Detail.self, from: data)

        #expect(String(decoding: data, as: UTF8.self).contains(#""body":null"#))
        #expect(abs(decoded.createdAt.timeIntervalSince1970 - 1_795_253_400.123) < 0.0005)
        #expect(abs(decoded.updatedAt.timeIntervalSince1970 - 1_795_253_400.999) < 0.0005)
    }

    @Test("dates without fractional seconds decode too")
    func lenientDecoding() {
        #expect(IntranetJSON.parseDate("2026-11-21T09:30:00Z") == Date(timeIntervalSince1970: 1_795_253_400))
    }
}
