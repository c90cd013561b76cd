import Foundation
import HTTPTypes
import HummingbirdTesting
import Spearal
import Testing
@testable import IntranetServer

extension VisibilityProbe: CustomTestStringConvertible {
    var testDescription: String { description }
}

/// Publication, expiry and the end of a pin happen at an instant with no write: with the
/// server's clock moved by hand, every read path (kept answers included: the route cache, the
/// event loop's early answers, web pages) shows the new state from that instant on, and not a
/// millisecond before.
@Suite("Publishing in time: publishAt, expiresAt, pinnedUntil")
struct PublishingClockTests {
    /// The paths of the post the per-path tests create (the seed has six: it is the seventh).
    static let paths = VisibilityProbe.everyPath(of: 7, search: "evacuation")

    static func drill(_ time: String, _ instant: Date) -> String {
        Body.object([
            "title": Body.string("Evacuation drill on Thursday"), "body": Body.string("<p>Meet at the car park.</p>"),
            time: Body.string(rfc3339(instant)),
        ])
    }

    @Test("the first read after publishAt shows the post, whichever path it takes and however warm the caches", arguments: paths)
    func firstReadAfterPublication(probe: VisibilityProbe) async throws {
        let clock = TestClock()
        try await withClockedServer(clock: clock) { server, client in
            let publishAt = clock.now.addingTimeInterval(90)
            try #require(try await client.createAnnouncement(Self.drill("publishAt", publishAt)) == 7)
            clock.set(publishAt.addingTimeInterval(-0.001))
            try await Self.paths.warm(on: server, client)
            #expect(try probe.shows(await probe.read(client), id: 7) == false, "a millisecond before publishAt")

            clock.set(publishAt)
            #expect(try probe.shows(await probe.read(client), id: 7), "the first read at publishAt")
        }
    }

    @Test("the first read after expiresAt no longer shows the post, whichever path it takes and however warm the caches", arguments: paths)
    func firstReadAfterExpiry(probe: VisibilityProbe) async throws {
        let clock = TestClock()
        try await withClockedServer(clock: clock) { server, client in
            let expiresAt = clock.now.addingTimeInterval(90)
            try #require(try await client.createAnnouncement(Self.drill("expiresAt", expiresAt)) == 7)
            clock.set(expiresAt.addingTimeInterval(-0.001))
            try await Self.paths.warm(on: server, client)
            #expect(try probe.shows(await probe.read(client), id: 7), "a millisecond before expiresAt")

            clock.set(expiresAt)
            #expect(try probe.shows(await probe.read(client), id: 7) == false, "the first read at expiresAt")
        }
    }

    @Test("a scheduled post: hidden before publishAt on every path and in X-Total, listed as scheduled for editors; at publishAt shown everywhere, old validators refused", arguments: TestStorage.all)
    func publication(storage: TestStorage) async throws {
        let clock = TestClock()
        try await withClockedServer(storage, clock: clock) { server, client in
            let publishAt = clock.now.addingTimeInterval(60)
            let id = try await client.createAnnouncement(Self.drill("publishAt", publishAt))
            let paths = VisibilityProbe.everyPath(of: id, search: "evacuation")
            let editorView = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            #expect(editorView["status"] as? String == "published")
            #expect(editorView["publishAt"] as? String == rfc3339(publishAt))
            #expect(try await client.send(.get, "/announcements?status=scheduled", as: .editor).ids() == [id])

            try await paths.warm(on: server, client)
            try await paths.expect(client, showing: id, false, total: 6, "at creation")
            clock.set(publishAt.addingTimeInterval(-0.001))
            try await paths.warm(on: server, client)
            try await paths.expect(client, showing: id, false, total: 6, "a millisecond before publishAt")
            let listTag = try #require(try await client.send(.get, "/announcements").headers[.eTag])
            let readerTag = try #require(try await client.send(.get, "/announcements", as: .reader).headers[.eTag])
            let hits = server.cache.publicAnswerHits
            for _ in 0..<2 {
                #expect(try await client.send(.get, "/announcements", headers: [.ifNoneMatch: listTag]).status == .notModified)
            }
            #expect(server.cache.publicAnswerHits == hits + 1, "the 304 was kept and answered early just before")

            clock.set(publishAt)
            let revalidated = try await client.send(.get, "/announcements", headers: [.ifNoneMatch: listTag])
            #expect(revalidated.status == .ok, "a list kept before publishAt is no longer current")
            #expect(try revalidated.ids().contains(id) && revalidated.headers[.total] == "7")
            let readerRevalidated = try await client.send(.get, "/announcements", headers: [.ifNoneMatch: readerTag], as: .reader)
            #expect(readerRevalidated.status == .ok && (try? readerRevalidated.ids().contains(id)) == true)
            try await paths.expect(client, showing: id, true, total: 7, "at publishAt")

            // Old versions list the same posts in their own shapes, with no new key.
            let v1 = try await client.send(.get, "/announcements", version: "1.0").objects()
            let v2 = try await client.send(.get, "/announcements", version: "2.0").objects()
            #expect(v1.map { $0["id"] as? Int } == v2.map { $0["id"] as? Int } && v2.count == 7)
            #expect(v1.allSatisfy { Set($0.keys) == ["id", "title", "body"] })
            #expect(v2.allSatisfy { Set($0.keys) == ["id", "title"] })
            let item = try #require(try await client.send(.get, "/announcements").objects().first { $0["id"] as? Int == id })
            #expect(item["status"] as? String == "published" && item["publishAt"] as? String == rfc3339(publishAt))
            #expect(try await client.send(.get, "/announcements?status=scheduled", as: .editor).ids() == [])

            clock.set(publishAt.addingTimeInterval(600))
            try await paths.expect(client, showing: id, true, total: 7, "ten minutes later")
        }
    }

    @Test("an expiring post: shown until a millisecond before expiresAt; at expiresAt gone from every path and X-Total, an old ETag gets 404 not 304, listed as expired for editors", arguments: TestStorage.all)
    func expiry(storage: TestStorage) async throws {
        let clock = TestClock()
        try await withClockedServer(storage, clock: clock) { server, client in
            let expiresAt = clock.now.addingTimeInterval(60)
            let id = try await client.createAnnouncement(Self.drill("expiresAt", expiresAt))
            let paths = VisibilityProbe.everyPath(of: id, search: "evacuation")
            try await paths.warm(on: server, client)
            try await paths.expect(client, showing: id, true, total: 7, "at creation")
            #expect(try await client.send(.get, "/announcements?status=expired", as: .editor).ids() == [])

            clock.set(expiresAt.addingTimeInterval(-0.001))
            try await paths.warm(on: server, client)
            try await paths.expect(client, showing: id, true, total: 7, "a millisecond before expiresAt")
            let detailTag = try #require(try await client.send(.get, "/announcements/\(id)").headers[.eTag])
            let readerTag = try #require(try await client.send(.get, "/announcements/\(id)", as: .reader).headers[.eTag])
            let listTag = try #require(try await client.send(.get, "/announcements").headers[.eTag])
            let hits = server.cache.publicAnswerHits
            for _ in 0..<2 {
                #expect(try await client.send(.get, "/announcements/\(id)", headers: [.ifNoneMatch: detailTag]).status == .notModified)
            }
            #expect(server.cache.publicAnswerHits == hits + 1, "the 304 was kept and answered early just before")

            clock.set(expiresAt)
            #expect(try await client.send(.get, "/announcements/\(id)", headers: [.ifNoneMatch: detailTag]).status == .notFound)
            #expect(try await client.send(.get, "/announcements/\(id)", headers: [.ifNoneMatch: readerTag], as: .reader).status == .notFound)
            let list = try await client.send(.get, "/announcements", headers: [.ifNoneMatch: listTag])
            #expect(list.status == .ok && (try? list.ids().contains(id)) == false)
            try await paths.expect(client, showing: id, false, total: 6, "at expiresAt")
            #expect(try await client.send(.get, "/announcements?status=expired", as: .editor).ids() == [id])
            let editorView = try await client.send(.get, "/announcements/\(id)", as: .editor)
            #expect(editorView.status == .ok && (try? editorView.object()["expiresAt"] as? String) == rfc3339(expiresAt))
        }
    }

    @Test("a pin ends at pinnedUntil: 3.0 lists put the post back in its place and say pinned false, an old ETag gets the new detail; 2.0 order never changes", arguments: TestStorage.all)
    func pinEnds(storage: TestStorage) async throws {
        let clock = TestClock()
        try await withClockedServer(storage, clock: clock) { server, client in
            let pinnedUntil = clock.now.addingTimeInterval(30)
            let plain = try await client.createAnnouncement(#"{"title":"Plain notice"}"#)
            let pinned = try await client.createAnnouncement(Body.object([
                "title": Body.string("Pinned notice"), "pinned": "true", "pinnedUntil": Body.string(rfc3339(pinnedUntil)),
            ]))
            let pinnedOrder = [pinned, 1, 2, 3, 4, 5, 6, plain]
            let plainOrder = [1, 2, 3, 4, 5, 6, plain, pinned]
            let spearal: HTTPFields = [.accept: "application/spearal"]
            func pinnedFlag(_ list: TestResponse) throws -> Bool? { try list.objects().first { $0["id"] as? Int == pinned }?["pinned"] as? Bool }
            func spearalFlag(_ list: TestResponse) throws -> Bool? {
                guard case .bool(let flag)? = try list.beans().first(where: { $0.int("id") == pinned })?["pinned"] else { return nil }
                return flag
            }

            var detailTag = ""
            for moment in [clock.now, pinnedUntil.addingTimeInterval(-0.001)] {
                clock.set(moment)
                for _ in 0..<3 {
                    let latest = try await client.send(.get, "/announcements")
                    #expect(try latest.ids() == pinnedOrder && pinnedFlag(latest) == true)
                    #expect(try await client.send(.get, "/announcements", version: "3.0", as: .reader).ids() == pinnedOrder)
                    #expect(try await client.send(.get, "/announcements", headers: spearal).beans().map { $0.int("id") } == pinnedOrder)
                    #expect(try await client.send(.get, "/announcements", version: "2.0").ids() == plainOrder)
                    #expect(try await client.send(.get, "/announcements", version: "1.0").ids() == plainOrder)
                    let detail = try await client.send(.get, "/announcements/\(pinned)")
                    #expect(try detail.object()["pinned"] as? Bool == true)
                    detailTag = try #require(detail.headers[.eTag])
                }
            }
            let hits = server.cache.publicAnswerHits
            for _ in 0..<2 {
                #expect(try await client.send(.get, "/announcements/\(pinned)", headers: [.ifNoneMatch: detailTag]).status == .notModified)
            }
            #expect(server.cache.publicAnswerHits == hits + 1, "the 304 was kept and answered early just before")

            clock.set(pinnedUntil)
            let revalidated = try await client.send(.get, "/announcements/\(pinned)", headers: [.ifNoneMatch: detailTag])
            #expect(revalidated.status == .ok, "pinned now reads false: not the kept representation")
            #expect(try revalidated.object()["pinned"] as? Bool == false)
            #expect(try revalidated.object()["pinnedUntil"] as? String == rfc3339(pinnedUntil))
            let latest = try await client.send(.get, "/announcements")
            #expect(try latest.ids() == plainOrder && pinnedFlag(latest) == false)
            #expect(try await client.send(.get, "/announcements", version: "3.0", as: .reader).ids() == plainOrder)
            let spearalList = try await client.send(.get, "/announcements", headers: spearal)
            #expect(try spearalList.beans().map { $0.int("id") } == plainOrder && spearalFlag(spearalList) == false)
            #expect(try await client.send(.get, "/announcements", version: "2.0").ids() == plainOrder)
            #expect(try await client.send(.get, "/announcements", version: "1.0").ids() == plainOrder)
            #expect(try await client.send(.get, "/announcements/\(pinned)", as: .editor).object()["pinned"] as? Bool == false)
        }
    }
}
