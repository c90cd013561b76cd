import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("AnnouncementsRepository")
struct AnnouncementsRepositoryTests {
    @Test("under 1.0 the list carries bodies and opening one sends no request")
    func version1Flow() async throws {
        let transport = FakeIntranet.transport(count: 3)
        let announcements = makeIntranet(transport, version: .v1_0).announcements

        let page = try await announcements.read(page: 1, pageSize: 10)
        let opened = try await announcements.open(try #require(page.items.first))

        #expect(page.items.map(\.body) == [.html("<p>1</p>"), .html("<p>2</p>"), .html("<p>3</p>")])
        #expect(opened == Announcement(id: 1, title: "Title 1", body: "<p>1</p>"))
        let requests = await transport.requests
        #expect(requests.count == 1)
        #expect(requests.first?.headerFields[.acceptVersion] == "1.0")
        #expect(requests.first?.queryDictionary == ["page": "1", "per_page": "10"])
    }

    @Test("under 2.0 the list carries id and title and opening one fetches it by id")
    func version2Flow() async throws {
        let transport = FakeIntranet.transport(count: 3)
        let announcements = makeIntranet(transport, version: .v2_0).announcements

        let page = try await announcements.read(page: 1, pageSize: 10)
        let opened = try await announcements.open(try #require(page.items.last))

        #expect(page.items.map(\.body) == [.notIncluded, .notIncluded, .notIncluded])
        #expect(opened.body == "<p>3</p>")
        #expect(opened.createdAt == FakeIntranet.created)
        let requests = await transport.requests
        #expect(requests.map(\.path) == ["/announcements", "/announcements/3"])
        #expect(requests.allSatisfy { $0.headerFields[.acceptVersion] == "2.0" })
        #expect(requests.last?.method == .get)
    }

    @Test("under 1.0 an announcement without body opens with a nil body and no request")
    func version1NullBody() async throws {
        let transport = FakeIntranet.transport(count: 5)
        let announcements = makeIntranet(transport, version: .v1_0).announcements

        let items = try await announcements.read(page: 1, pageSize: 5).items
        let opened = try await announcements.open(try #require(items.last))

        #expect(opened.body == nil)
        #expect(await transport.requests.count == 1)
    }

    @Test("the async sequence walks every announcement through every page")
    func walksEveryPage() async throws {
        let transport = FakeIntranet.transport(count: 23)
        let announcements = makeIntranet(transport, version: .v2_0).announcements

        var ids: [Int] = []
        for try await item in announcements.allItems(pageSize: 10) { ids.append(item.id) }

        #expect(ids == Array(1...23))
        #expect(await transport.requests.compactMap { $0.queryDictionary["page"] } == ["1", "2", "3"])
    }

    @Test("create sends the draft with an explicit null body and decodes the 201 detail")
    func create() async throws {
        let detail = AnnouncementV2.Detail(id: 9, title: "Hi", body: nil, createdAt: FakeIntranet.created, updatedAt: FakeIntranet.created)
        let transport = MockTransport(script: [
            .json(detail, status: .created, headerFields: .of([("Location", "/announcements/9"), ("ETag", "\"9a\"")]), encoder: IntranetJSON.encoder())
        ])
        let announcements = makeIntranet(transport, version: .v2_0).announcements

        let created = try await announcements.createVersioned(AnnouncementDraft(title: "Hi"))

        #expect(created.value == Announcement(id: 9, title: "Hi", body: nil, createdAt: FakeIntranet.created, updatedAt: FakeIntranet.created))
        #expect(created.etag == "\"9a\"")
        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .post)
        #expect(sent.path == "/announcements")
        #expect(sent.headerFields[.contentType] == "application/json")
        #expect(try sent.bodyJSON() == ["title": "Hi", "body": nil])
    }

    @Test("patch sends a merge patch: title alone keeps the body, null clears it")
    func patchAbsentVersusNull() async throws {
        let answer = MockResponse.json(AnnouncementV1.Detail(id: 4, title: "T", body: nil))
        let transport = MockTransport(script: [answer, answer])
        let announcements = makeIntranet(transport, version: .v1_0).announcements

        _ = try await announcements.patch(AnnouncementPatch(title: "T"), id: 4, ifMatch: "*")
        _ = try await announcements.patchUnconditionally(AnnouncementPatch(body: .null), id: 4)

        let requests = await transport.requests
        #expect(requests.map(\.method) == [.patch, .patch])
        #expect(requests.map(\.path) == ["/announcements/4", "/announcements/4"])
        #expect(requests.map { $0.headerFields[.contentType] } == ["application/merge-patch+json", "application/merge-patch+json"])
        #expect(requests.map(\.bodyText) == [#"{"title":"T"}"#, #"{"body":null}"#])
        #expect(requests.map { $0.headerFields[.ifMatch] } == ["*", nil])
    }

    @Test("a conditional update that meets 412 is a VersionConflict whose current announcement is typed")
    func conditionalUpdateConflict() async throws {
        let transport = MockTransport(script: [
            .problem(.preconditionFailed, detail: "The announcement changed."),
            .json(AnnouncementV1.Detail(id: 2, title: "Theirs", body: nil), headerFields: .of([("ETag", "\"new\"")])),
        ])
        let announcements = makeIntranet(transport, version: .v1_0).announcements
        let stale = Versioned(Announcement(id: 2, title: "Mine", body: nil), etag: "\"old\"")

        let conflict = await #expect(throws: VersionConflict<Announcement>.self) {
            try await announcements.update(AnnouncementDraft(title: "Mine 2"), of: stale)
        }

        let current = try #require(conflict?.current)
        #expect(current.title == "Theirs")
        #expect(current.etag == "\"new\"")
        let put = try #require(await transport.requests.first)
        #expect(put.method == .put)
        #expect(put.headerFields[.ifMatch] == "\"old\"")
        #expect(try put.bodyJSON() == ["title": "Mine 2", "body": nil])
    }

    @Test("delete sends DELETE and accepts 204; an unknown id is notFound with the problem")
    func deleteAndNotFound() async throws {
        let transport = MockTransport(script: [
            .status(.noContent),
            .problem(.notFound, title: "Not Found", detail: "No announcement 77."),
        ])
        let announcements = makeIntranet(transport, version: .v2_0).announcements

        try await announcements.deleteUnconditionally(id: 7)
        let error = await #expect(throws: RepositoryError.self) { try await announcements.deleteUnconditionally(id: 77) }

        let problem = try #require(error?.response?.decodeProblem(as: Problem.self))
        #expect(problem.detail == "No announcement 77.")
        #expect(await transport.requests.map(\.method) == [.delete, .delete])
        #expect(await transport.requests.map(\.path) == ["/announcements/7", "/announcements/77"])
    }

    @Test("a sorted read takes a typed field, sends sort and order, and keeps the paging headers")
    func sortedReadIsAPage() async throws {
        let headers = HTTPFields.of([("X-Total", "12"), ("Link", "</announcements?page=3&per_page=5&sort=createdAt&order=desc>; rel=\"next\"")])
        let transport = MockTransport(script: [.json([AnnouncementV2.ListItem(id: 3, title: "C")], headerFields: headers)])
        let announcements = makeIntranet(transport, version: .v2_0).announcements

        let page = try await announcements.read(page: 2, pageSize: 5, sortedBy: .createdAt, order: .descending)

        #expect(page.items.map(\.id) == [3])
        #expect(page.info.total == 12)
        #expect(page.hasNext)
        let sent = try #require(await transport.lastRequest)
        #expect(sent.queryDictionary == ["page": "2", "per_page": "5", "sort": "createdAt", "order": "desc"])
        #expect(AnnouncementsRepository.SortField.allCases.map(\.rawValue) == ["id", "title", "createdAt", "updatedAt"])
    }

    @Test("a 1.0 list item says apart a body that is empty and one that was not sent")
    func emptyBodyIsNotMissingBody() async throws {
        let transport = MockTransport(script: [.text(#"[{"id":1,"title":"A","body":null},{"id":2,"title":"B","body":"<p>b</p>"},{"id":3,"title":"C"}]"#)])
        let announcements = makeIntranet(transport, version: .v1_0).announcements

        let items = try await announcements.read(page: 1, pageSize: 3).items

        #expect(items.map(\.body) == [.empty, .html("<p>b</p>"), .notIncluded])
        #expect(items.map(\.body.isIncluded) == [true, true, false])
        #expect(Announcement(items[0]) == Announcement(id: 1, title: "A", body: nil))
        #expect(Announcement(items[2]) == nil)
        #expect(await transport.requests.count == 1)
    }
}
