import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import NIOCore
import Testing

@testable import IntranetServer

/// What publishing makes of a WordPress export: sticky posts arrive pinned, scheduled posts
/// arrive scheduled when asked for, and appear at their date.
@Suite("WordPress import: sticky and scheduled posts")
struct WordPressPublishingTests {
    /// The harbour export with "Security notice" made sticky and "Scheduled post" due on
    /// 7 December 2030 at 08:00 UTC.
    static func export() throws -> Data {
        var text = String(decoding: try WordPressImportTests.fixture("harbour-2024.xml"), as: UTF8.self)
        let security = try #require(text.range(of: "<title>Security notice</title>"))
        let sticky = try #require(text.range(of: "<wp:is_sticky>0</wp:is_sticky>", range: security.upperBound..<text.endIndex))
        text.replaceSubrange(sticky, with: "<wp:is_sticky>1</wp:is_sticky>")
        let scheduled = try #require(text.range(of: "<title>Scheduled post</title>"))
        let item = try #require(text.range(of: "</item>", range: scheduled.upperBound..<text.endIndex))
        let section = String(text[scheduled.lowerBound..<item.lowerBound])
            .replacingOccurrences(of: "<wp:post_date_gmt><![CDATA[2024-03-04 08:15:00]]>", with: "<wp:post_date_gmt><![CDATA[2030-12-07 08:00:00]]>")
            .replacingOccurrences(of: "<wp:post_date><![CDATA[2024-03-04 09:15:00]]>", with: "<wp:post_date><![CDATA[2030-12-07 09:00:00]]>")
        text.replaceSubrange(scheduled.lowerBound..<item.lowerBound, with: section)
        return Data(text.utf8)
    }

    @Test("a sticky post arrives pinned and first; a scheduled post is skipped unless asked for, then appears at its date")
    func stickyAndScheduled() async throws {
        let clock = TestClock()
        try await withClockedServer(clock: clock) { _, client in
            let plain = try await WordPressImportTests.post(try Self.export(), client: client).object()
            #expect((plain["skipped"] as? [String: Int])?["future"] == 1)
            let list = try await client.send(.get, "/announcements?per_page=100", version: "3.0").objects()
            #expect(list.first?["title"] as? String == "Security notice")
            #expect(list.first?["pinned"] as? Bool == true)
            #expect(list.dropFirst().allSatisfy { $0["pinned"] as? Bool == false })
            #expect(!list.contains { $0["title"] as? String == "Scheduled post" })

            let again = try await WordPressImportTests.post(try Self.export(), query: "?includeScheduled=true", client: client).object()
            #expect(again["created"] as? Int == 1)
            let scheduled = try await client.send(.get, "/announcements?status=scheduled", version: "3.0", as: .editor).objects()
            #expect(scheduled.map { $0["title"] as? String } == ["Scheduled post"])
            #expect(scheduled.first?["publishAt"] as? String == "2030-12-07T08:00:00.000Z")
            let id = try #require(scheduled.first?["id"] as? Int)
            #expect(try await client.send(.get, "/announcements/\(id)").status == .notFound)

            clock.set(try #require(IntranetJSON.parseDate("2030-12-07T08:00:00.000Z")))
            #expect(try await client.send(.get, "/announcements/\(id)").status == .ok)
        }
    }
}
