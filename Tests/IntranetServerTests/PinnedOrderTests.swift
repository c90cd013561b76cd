import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// In 3.0 lists, and only there, announcements pinned now come first, in the order they were
/// pinned, then the requested sort; paging runs over that whole order.
@Suite("Publishing: pinned first in 3.0 lists")
struct PinnedOrderTests {
    /// The ids of each page of `max` items of `query` under `version`, and the totals they said.
    private func pages(_ client: some TestClientProtocol, _ query: String, max: Int, version: String? = nil, count: Int) async throws -> ([[Int]], Set<String>) {
        var pages: [[Int]] = []
        var totals = Set<String>()
        for offset in stride(from: 0, to: count, by: max) {
            let separator = query.isEmpty ? "" : "&"
            let page = try await client.send(.get, "/announcements?\(query)\(separator)max=\(max)&offset=\(offset)", version: version)
            pages.append(try page.ids())
            totals.insert(page.headers[.total] ?? "none")
        }
        return (pages, totals)
    }

    @Test("pinned posts lead page one in the order they were pinned, the rest follow across page boundaries; 1.0 and 2.0 keep the plain order", arguments: TestStorage.all)
    func pinnedFirstAcrossPages(storage: TestStorage) async throws {
        let clock = TestClock()
        try await withClockedServer(storage, clock: clock) { _, client in
            for number in 7...14 { _ = try await client.createAnnouncement(Body.object(["title": Body.string("Item \(number)")])) }
            func pin(_ id: Int, _ json: String = #"{"pinned":true}"#) async throws {
                clock.set(clock.now.addingTimeInterval(1))
                #expect(try await client.send(.patch, "/announcements/\(id)", json: json).status == .ok)
            }
            try await pin(12)
            try await pin(9)
            try await pin(4, #"{"pinned":true,"pinnedUntil":"2099-01-01T00:00:00Z"}"#)

            let (byId, totals) = try await pages(client, "", max: 5, count: 14)
            #expect(byId == [[12, 9, 4, 1, 2], [3, 5, 6, 7, 8], [10, 11, 13, 14]])
            #expect(totals == ["14"])
            let (descending, _) = try await pages(client, "sort=id&order=desc", max: 5, count: 14)
            #expect(descending == [[12, 9, 4, 14, 13], [11, 10, 8, 7, 6], [5, 3, 2, 1]])
            let (byTitle, _) = try await pages(client, "sort=title", max: 4, count: 14)
            #expect(Array(byTitle.joined().prefix(3)) == [12, 9, 4] && Set(byTitle.joined()) == Set(1...14) && byTitle.joined().count == 14)
            let perPage = try await client.send(.get, "/announcements?page=2&per_page=5")
            #expect(try perPage.ids() == [3, 5, 6, 7, 8])
            let flags = try await client.send(.get, "/announcements?max=100").objects().map { $0["pinned"] as? Bool }
            #expect(flags == [true, true, true] + Array(repeating: false, count: 11))
            for version in ["1.0", "2.0"] {
                let (plain, totals) = try await pages(client, "", max: 5, version: version, count: 14)
                #expect(plain == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14]], "\(version)")
                #expect(totals == ["14"])
                let (plainDescending, _) = try await pages(client, "sort=id&order=desc", max: 5, version: version, count: 14)
                #expect(plainDescending == [[14, 13, 12, 11, 10], [9, 8, 7, 6, 5], [4, 3, 2, 1]], "\(version)")
            }
            #expect(try await client.send(.get, "/announcements?max=3", as: .reader).ids() == [12, 9, 4])
        }
    }

    @Test("the order of pinning is kept by other edits and restarted by unpinning; a pin already ended or on a hidden post does not lead", arguments: TestStorage.all)
    func orderOfPinning(storage: TestStorage) async throws {
        let clock = TestClock()
        try await withClockedServer(storage, clock: clock) { _, client in
            func patch(_ id: Int, _ json: String) async throws {
                clock.set(clock.now.addingTimeInterval(1))
                let response = try await client.send(.patch, "/announcements/\(id)", json: json)
                #expect(response.status == .ok, "\(id) \(json): \(response.text)")
            }
            func leading(_ count: Int = 4, as caller: Caller = .anonymous) async throws -> [Int] {
                try await client.send(.get, "/announcements?max=\(count)", as: caller).ids()
            }
            try await patch(5, #"{"pinned":true}"#)
            try await patch(3, #"{"pinned":true}"#)
            try await patch(6, #"{"pinned":true}"#)
            #expect(try await leading() == [5, 3, 6, 1])

            try await patch(5, #"{"title":"Edited while pinned","important":true}"#)
            try await patch(3, #"{"pinned":true}"#)
            #expect(try await client.send(.put, "/announcements/6", json: #"{"title":"Replaced while pinned"}"#).status == .ok)
            #expect(try await leading() == [5, 3, 6, 1], "edits and a repeated pin keep the order")

            try await patch(5, #"{"pinned":false}"#)
            #expect(try await leading() == [3, 6, 1, 2])
            try await patch(5, #"{"pinned":true}"#)
            #expect(try await leading() == [3, 6, 5, 1], "pinned again: last of the pinned")

            let ended = rfc3339(clock.now.addingTimeInterval(-60))
            try await patch(2, #"{"pinned":true,"pinnedUntil":"\#(ended)"}"#)
            let list = try await client.send(.get, "/announcements?max=5")
            #expect(try list.ids() == [3, 6, 5, 1, 2])
            #expect(try list.objects().first { $0["id"] as? Int == 2 }?["pinned"] as? Bool == false, "a pin that has ended reads false")

            try await patch(6, #"{"status":"draft"}"#)
            try await patch(3, #"{"readers":[3]}"#)
            #expect(try await leading(as: .otherReader) == [5, 1, 2, 4])
            #expect(try await leading(as: .reader) == [3, 5, 1, 2])
        }
    }
}
