import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Testing

/// The SDK against the real server on a loopback socket through `URLSessionTransport`
/// (issue 4, item 13), in JSON and in Spearal: every call works the same in either format.
/// Every test gets a server of its own with the six seeded announcements.
@Suite("Announcements end to end")
struct AnnouncementsEndToEndTests {
    @Test("1.0 lists carry bodies and opening needs no request; 2.0 lists carry titles and opening fetches the body", arguments: WireFormat.allCases)
    func bothFlows(format: WireFormat) async throws {
        try await withLiveServer { url in
            let v1 = IntranetClient(baseURL: url, apiVersion: .v1_0, format: format)
            let v2 = IntranetClient(baseURL: url, apiVersion: .v2_0, format: format)

            let oldList = try await v1.announcements.read(page: 1, pageSize: 100).items
            let newList = try await v2.announcements.read(page: 1, pageSize: 100).items
            let oldSecond = try #require(oldList.first { $0.id == 2 })
            let newSecond = try #require(newList.first { $0.id == 2 })
            let openedOld = try await v1.announcements.open(oldSecond)
            let openedNew = try await v2.announcements.open(newSecond)

            #expect(oldList.map(\.id) == [1, 2, 3, 4, 5, 6])
            #expect(oldList.allSatisfy { !($0.body.html ?? "").isEmpty })
            #expect(newList.map(\.id) == [1, 2, 3, 4, 5, 6])
            #expect(newList.allSatisfy { $0.body == .notIncluded })
            #expect(openedOld.body?.contains("Harbour Building") == true)
            #expect(openedNew.body == openedOld.body)
            #expect(openedNew.createdAt != nil)
        }
    }

    @Test("create, read by id, patch leaving the body alone and then clearing it (each guarded by the last ETag), delete, then 404", arguments: WireFormat.allCases)
    func lifecycle(format: WireFormat) async throws {
        try await withLiveServer { url in
            let intranet = try await signedInClient(url, as: "editor", format: format)

            let created = try await intranet.announcements.createVersioned(AnnouncementDraft(title: "  Fire drill ", body: "<p>10:00</p>"))
            let read = try await intranet.announcements.readVersioned(id: created.id)
            let retitled = try await intranet.announcements.patch(AnnouncementPatch(title: "Fire drill moved"), of: read)
            let cleared = try await intranet.announcements.patch(AnnouncementPatch(body: .null), of: retitled)
            try await intranet.announcements.delete(cleared)
            let error = await #expect(throws: RepositoryError.self) { try await intranet.announcements.read(id: read.id) }

            #expect(created.value.id == 7)
            #expect(created.etag != nil)
            #expect(read.title == "Fire drill")
            #expect(retitled.title == "Fire drill moved" && retitled.body == "<p>10:00</p>")
            #expect(cleared.title == "Fire drill moved" && cleared.body == nil)
            guard case .notFound = try #require(error) else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("an update based on a stale read meets 412 carrying the server's current version, and changes nothing", arguments: WireFormat.allCases)
    func conditionalUpdate(format: WireFormat) async throws {
        try await withLiveServer { url in
            let intranet = try await signedInClient(url, as: "editor", format: format)
            let mine = try await intranet.announcements.readVersioned(id: 2)
            _ = try await intranet.announcements.patchUnconditionally(AnnouncementPatch(title: "Changed by a colleague"), id: 2)

            let conflict = await #expect(throws: VersionConflict<Announcement>.self) {
                try await intranet.announcements.update(AnnouncementDraft(title: "My stale edit"), of: mine)
            }

            let current = try #require(conflict?.current)
            #expect(current.title == "Changed by a colleague")
            #expect(current.etag != mine.etag)
            #expect(try await intranet.announcements.read(id: 2).title == "Changed by a colleague")
        }
    }

    @Test("the async sequences walk every page and every item exactly once", arguments: WireFormat.allCases)
    func paging(format: WireFormat) async throws {
        try await withLiveServer { url in
            let intranet = try await signedInClient(url, as: "editor", format: format)
            for index in 1...17 {
                _ = try await intranet.announcements.create(AnnouncementDraft(title: "Page item \(index)"))
            }

            var seen: [Int] = []
            for try await item in intranet.announcements.allItems(pageSize: 5) { seen.append(item.id) }
            var pageSizes: [Int] = []
            for try await page in intranet.announcements.pages(pageSize: 10) { pageSizes.append(page.items.count) }
            let second = try await intranet.announcements.read(page: 2, pageSize: 10)

            #expect(seen == Array(1...23))
            #expect(pageSizes == [10, 10, 3])
            #expect(second.info.total == 23)
            #expect(second.info.page == 2)
            #expect(second.info.pageSize == 10)
            #expect(second.items.map(\.id) == Array(11...20))
        }
    }

    @Test("validation errors arrive as the typed 422 with each field's message", arguments: WireFormat.allCases)
    func validation(format: WireFormat) async throws {
        try await withLiveServer { url in
            let intranet = try await signedInClient(url, as: "editor", format: format)

            let error = await #expect(throws: RepositoryError.self) {
                try await intranet.announcements.create(AnnouncementDraft(title: "   "))
            }

            guard case .unprocessable(_, let fields) = try #require(error) else {
                Issue.record("expected unprocessable, got \(String(describing: error))")
                return
            }
            #expect(fields.map(\.field) == ["title"])
        }
    }
}
