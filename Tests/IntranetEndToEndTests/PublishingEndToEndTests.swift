import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Testing

/// The SDK's publishing (API 3.0) against the real server on a loopback socket, in JSON and in
/// Spearal: drafts with every publishing property, clearing a time with `.null`, the editors'
/// lists, the feed's order and marks, and Markdown bodies.
@Suite("Publishing end to end")
struct PublishingEndToEndTests {
    private static func instant(_ text: String) throws -> Date {
        try #require(IntranetJSON.parseDate(text), "\(text)")
    }

    private static func expectStatus(_ error: RepositoryError?, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = error.map { String(describing: $0) } ?? "no error"
        switch error {
        case .notFound?: #expect(expected == "notFound", "got \(shown)", sourceLocation: sourceLocation)
        case .forbidden?: #expect(expected == "forbidden", "got \(shown)", sourceLocation: sourceLocation)
        default: Issue.record("expected \(expected), got \(shown)", sourceLocation: sourceLocation)
        }
    }

    @Test("a draft created with every publishing property reads back the same; readers get 404; patching publishAt to .null and publishing shows it to them", arguments: WireFormat.allCases)
    func draftRoundTrip(format: WireFormat) async throws {
        try await withLiveServer { url in
            let editor = try await signedInClient(url, as: "editor", version: .v3_0, format: format)
            let reader = try await signedInClient(url, as: "reader", version: .v3_0, format: format)
            let draft = AnnouncementDraft(
                title: "Harbour opening", body: "<p>Doors at nine.</p>", status: .draft,
                publishAt: try Self.instant("2030-06-01T08:00:00Z"), expiresAt: try Self.instant("2031-01-01T00:00:00Z"),
                pinned: true, pinnedUntil: try Self.instant("2030-07-01T00:00:00Z"), important: true,
                audience: AnnouncementAudience(departments: ["IT"], teams: [9]))

            let created = try await editor.announcements.createVersioned(draft)
            let read = try await editor.announcements.readVersioned(id: created.id)
            let expected = AnnouncementV3.Publishing(
                status: .draft, publishAt: try Self.instant("2030-06-01T08:00:00Z"), expiresAt: try Self.instant("2031-01-01T00:00:00Z"),
                pinned: true, pinnedUntil: try Self.instant("2030-07-01T00:00:00Z"), important: true)
            #expect(created.value.publishing == expected)
            #expect(read.publishing == expected)
            #expect(read.audience == AnnouncementAudience(departments: ["IT"], teams: [9]))
            #expect(read.isPinned && read.isImportant)
            let hidden = await #expect(throws: RepositoryError.self) { try await reader.announcements.read(id: created.id) }
            Self.expectStatus(hidden, "notFound")

            let cleared = try await editor.announcements.patch(
                AnnouncementPatch(status: .published, publishAt: .null, audience: .null), of: read)
            #expect(cleared.publishing?.publishAt == nil)
            #expect(cleared.publishing?.status == .published)
            #expect(cleared.publishing?.expiresAt == (try Self.instant("2031-01-01T00:00:00Z")), "what the patch does not name is kept")
            #expect(cleared.audience == nil)
            let seen = try await reader.announcements.read(id: created.id)
            #expect(seen.title == "Harbour opening" && seen.body == "<p>Doors at nine.</p>")
            #expect(seen.isImportant && seen.audience == nil && seen.markdown == nil)
        }
    }

    @Test("Listing.draft, .scheduled and .expired through read(page:pageSize:extraQuery:) and pages(pageSize:extraQuery:) list what readers do not see; a reader is refused", arguments: WireFormat.allCases)
    func editorLists(format: WireFormat) async throws {
        try await withLiveServer { url in
            let editor = try await signedInClient(url, as: "editor", version: .v3_0, format: format)
            let reader = try await signedInClient(url, as: "reader", version: .v3_0, format: format)
            var drafts: [Int] = []
            for number in 1...3 {
                drafts.append(try await editor.announcements.create(AnnouncementDraft(title: "Draft \(number)", status: .draft)).id)
            }
            let scheduled = try await editor.announcements.create(AnnouncementDraft(title: "Later", publishAt: try Self.instant("2099-01-01T00:00:00Z"))).id
            let expired = try await editor.announcements.create(AnnouncementDraft(
                title: "Gone", publishAt: try Self.instant("2001-01-01T00:00:00Z"), expiresAt: try Self.instant("2002-01-01T00:00:00Z"))).id

            let first = try await editor.announcements.read(page: 1, pageSize: 2, extraQuery: AnnouncementsRepository.Listing.draft.query)
            #expect(first.items.map(\.id) == Array(drafts.prefix(2)))
            #expect(first.info.total == 3 && first.hasNext)
            #expect(first.items.allSatisfy { $0.publishing?.status == .draft && $0.createdAt != nil })
            var walked: [Int] = []
            for try await page in editor.announcements.pages(pageSize: 2, extraQuery: AnnouncementsRepository.Listing.draft.query) {
                walked += page.items.map(\.id)
            }
            #expect(walked == drafts)
            let later = try await editor.announcements.read(page: 1, pageSize: 10, extraQuery: AnnouncementsRepository.Listing.scheduled.query)
            #expect(later.items.map(\.id) == [scheduled])
            #expect(later.items.first?.publishing?.publishAt == (try Self.instant("2099-01-01T00:00:00Z")))
            let gone = try await editor.announcements.read(page: 1, pageSize: 10, extraQuery: AnnouncementsRepository.Listing.expired.query)
            #expect(gone.items.map(\.id) == [expired])
            let live = try await editor.announcements.read(page: 1, pageSize: 100)
            #expect(live.items.map(\.id) == Array(1...6), "the default list is what readers see")

            let refused = await #expect(throws: RepositoryError.self) {
                try await reader.announcements.read(page: 1, pageSize: 10, extraQuery: AnnouncementsRepository.Listing.draft.query)
            }
            Self.expectStatus(refused, "forbidden")
        }
    }

    @Test("the feed shows a pinned announcement first, marked pinned and important, in the server's order", arguments: WireFormat.allCases)
    func feedOrder(format: WireFormat) async throws {
        try await withLiveServer { url in
            let editor = try await signedInClient(url, as: "editor", version: .v3_0, format: format)
            let pinned = try await editor.announcements.create(AnnouncementDraft(title: "Storm warning", pinned: true, important: true)).id
            let plain = try await editor.announcements.create(AnnouncementDraft(title: "Canteen menu")).id
            let reader = IntranetClient(baseURL: url, apiVersion: .v3_0, format: format)
            let feed = AnnouncementFeed(repository: reader.announcements, pageSize: 5)

            await feed.refresh()

            let items = try #require(await feed.list.value)
            #expect(items.map(\.id) == [pinned, 1, 2, 3, 4])
            let first = try #require(items.first)
            #expect(first.title == "Storm warning" && first.isPinned && first.isImportant)
            #expect(items.dropFirst().allSatisfy { !$0.isPinned && !$0.isImportant })
            await feed.loadMore()
            #expect(await feed.list.value?.map(\.id) == [pinned, 1, 2, 3, 4, 5, 6, plain])
            await feed.open(first)
            #expect(await feed.detail.value?.isImportant == true)
        }
    }

    @Test("Markdown create: the body is sanitised HTML with the table, the editor's read keeps the source, a reader's does not; a patch with an HTML body clears it", arguments: WireFormat.allCases)
    func markdown(format: WireFormat) async throws {
        try await withLiveServer { url in
            let editor = try await signedInClient(url, as: "editor", version: .v3_0, format: format)
            let reader = try await signedInClient(url, as: "reader", version: .v3_0, format: format)
            let source = "## Rota\n\n| Day | Who |\n|-----|-----|\n| Mon | Ana |\n\n<script>alert(1)</script>\n"

            let created = try await editor.announcements.createVersioned(AnnouncementDraft(title: "Rota", markdown: source))
            let read = try await editor.announcements.readVersioned(id: created.id)
            let body = try #require(read.body)
            #expect(body.hasPrefix("<h2>Rota</h2>"), "\(body)")
            #expect(body.contains("<table>") && body.contains("<th>Day</th>") && body.contains("<td>Ana</td>"), "\(body)")
            #expect(!body.contains("<script") && !body.contains("alert(1)"), "\(body)")
            #expect(read.markdown == source)
            #expect(try await reader.announcements.read(id: created.id).markdown == nil)

            var rewrite = AnnouncementPatch()
            rewrite.markdown = .value("Now *shorter*.")
            let rewritten = try await editor.announcements.patch(rewrite, of: read)
            #expect(rewritten.body?.trimmingCharacters(in: .newlines) == "<p>Now <em>shorter</em>.</p>", "\(rewritten.body ?? "nil")")
            #expect(rewritten.markdown == "Now *shorter*.")

            let html = try await editor.announcements.patchUnconditionally(AnnouncementPatch(body: .value("<p>Plain HTML</p>")), id: created.id)
            #expect(html.body == "<p>Plain HTML</p>" && html.markdown == nil)
            #expect(try await editor.announcements.read(id: created.id).markdown == nil)
        }
    }
}
