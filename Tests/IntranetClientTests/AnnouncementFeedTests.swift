import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("AnnouncementFeed")
struct AnnouncementFeedTests {
    @Test("refresh loads the first page and knows whether more follow")
    func refreshLoads() async throws {
        let feed = AnnouncementFeed(repository: makeIntranet(FakeIntranet.transport(count: 12), version: .v2_0).announcements, pageSize: 5)

        await feed.refresh()

        let list = await feed.list
        #expect(list.value?.map(\.id) == [1, 2, 3, 4, 5])
        #expect(list.errorMessage == nil)
        #expect(await feed.hasMore)
    }

    @Test("loadMore appends the following pages until the last")
    func loadMoreAppends() async throws {
        let feed = AnnouncementFeed(repository: makeIntranet(FakeIntranet.transport(count: 12), version: .v2_0).announcements, pageSize: 5)

        await feed.refresh()
        await feed.loadMore()
        await feed.loadMore()
        await feed.loadMore()

        #expect(await feed.list.value?.map(\.id) == Array(1...12))
        #expect(await feed.hasMore == false)
    }

    @Test("a failed refresh keeps the shown list and says why in words")
    func failureKeepsList() async throws {
        let transport = MockTransport(script: [
            .json([AnnouncementV2.ListItem(id: 1, title: "A")]),
            .failure(URLError(.notConnectedToInternet)),
        ])
        let feed = AnnouncementFeed(repository: makeIntranet(transport, version: .v2_0).announcements)

        await feed.refresh()
        await feed.refresh()

        let list = await feed.list
        #expect(list.value?.map(\.title) == ["A"])
        #expect(list.errorMessage == "The server could not be reached. Check the connection and try again.")
    }

    @Test("under 1.0 opening shows the body at once without a request")
    func openVersion1() async throws {
        let transport = FakeIntranet.transport(count: 2)
        let feed = AnnouncementFeed(repository: makeIntranet(transport, version: .v1_0).announcements)
        await feed.refresh()
        let first = try #require(await feed.list.value?.first)

        await feed.open(first)

        #expect(await feed.detail == .loaded(Announcement(id: 1, title: "Title 1", body: "<p>1</p>")))
        #expect(await transport.requests.count == 1)
    }

    @Test("under 2.0 opening fetches the announcement; a missing one fails with a message")
    func openVersion2() async throws {
        let transport = FakeIntranet.transport(count: 2)
        let feed = AnnouncementFeed(repository: makeIntranet(transport, version: .v2_0).announcements)

        await feed.open(AnnouncementSummary(id: 2, title: "Title 2"))
        let opened = await feed.detail
        await feed.open(AnnouncementSummary(id: 99, title: "Gone"))
        let missing = await feed.detail

        #expect(opened.value?.body == "<p>2</p>")
        #expect(missing.errorMessage == "It does not exist any more.")
        #expect(await feed.openedID == 99)
        #expect(await transport.requests.map(\.path) == ["/announcements/2", "/announcements/99"])
    }

    @Test("a later open wins over an earlier fetch that answers last")
    func laterOpenWins() async throws {
        let transport = MockTransport { request in
            let id = Int(request.path.split(separator: "/").last ?? "") ?? 0
            if id == 1 { try await Task.sleep(for: .milliseconds(300)) }
            return .json(AnnouncementV1.Detail(id: id, title: "T\(id)", body: "B\(id)"))
        }
        let feed = AnnouncementFeed(repository: makeIntranet(transport, version: .v2_0).announcements)

        let slow = Task { await feed.open(AnnouncementSummary(id: 1, title: "T1")) }
        try await Task.sleep(for: .milliseconds(50))
        await feed.open(AnnouncementSummary(id: 2, title: "T2"))
        await slow.value

        #expect(await feed.openedID == 2)
        #expect(await feed.detail.value?.body == "B2")
        #expect(await transport.requests.count == 2)
    }

    @Test("observers see loading, then loaded, then closed")
    func snapshotsStream() async throws {
        let feed = AnnouncementFeed(repository: makeIntranet(FakeIntranet.transport(count: 1), version: .v1_0).announcements)
        let stream = await feed.snapshots()
        var iterator = stream.makeAsyncIterator()

        await feed.refresh()
        await feed.close()

        var seen: [FeedSnapshot] = []
        for _ in 0..<4 { seen.append(try #require(await iterator.next())) }
        #expect(seen.map(\.list.isLoading) == [false, true, false, false])
        #expect(seen[2].list.value?.count == 1)
        #expect(seen[3].detail == .idle)
    }
}
