import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Synchronization
import Testing
@testable import IntranetServer

/// The SDK's live stream against a real server: URLSession's delegate on Linux, reconnecting
/// across a restart with `Last-Event-ID`, the feed updating itself, a session ending.
@Suite("Live changes: the SDK against a live server", .serialized)
struct LiveChangesEndToEndTests {
    @Test("the change sequence gets every change once and in order, across a server restart (it reconnects and resumes)")
    func resumesAcrossARestart() async throws {
        let server = RestartableServer()
        try await server.start()
        let editor = try await signedInClient(server.url, as: "editor", version: .v3_0)
        let reader = try await signedInClient(server.url, as: "reader", version: .v3_0)
        let received = Mutex<[LiveChange]>([])
        // From the start of the log: every change this test makes, whenever the stream connects.
        let listening = Task {
            for try await change in reader.changes(resumingAfter: "0", reconnection: .init(initialDelay: .milliseconds(100))) {
                received.withLock { $0.append(change) }
            }
        }
        defer { listening.cancel() }
        let one = try await editor.announcements.create(AnnouncementDraft(title: "One"))
        let two = try await editor.announcements.create(AnnouncementDraft(title: "Two"))
        try await waitUntil("two changes arrived") { received.withLock { $0.count } >= 2 }

        await server.stop()
        try await server.start()
        let three = try await editor.announcements.create(AnnouncementDraft(title: "Three"))
        try await editor.announcements.deleteUnconditionally(id: one.id)
        _ = try await editor.announcements.create(AnnouncementDraft(title: "Draft", status: .draft))
        try await waitUntil("the changes made after the restart arrived", within: .seconds(20)) { received.withLock { $0.count } >= 4 }
        try await Task.sleep(for: .milliseconds(300))

        let changes = received.withLock { $0 }
        #expect(changes.map { "\($0.kind.rawValue) \($0.id ?? 0)" } == [
            "announcement.created \(one.id)", "announcement.created \(two.id)", "announcement.created \(three.id)",
            "announcement.deleted \(one.id)",
        ])
        let ids = changes.compactMap { $0.eventID.flatMap(Int.init) }
        #expect(ids.count == 4 && ids == ids.sorted() && Set(ids).count == 4, "\(ids)")
        #expect(changes[0].etag == "\"\(one.id).1.v2\"")
        await server.stop()
    }

    @Test("a feed following the stream shows a new announcement, refreshes the open one when it changes, and drops a deleted one")
    func feedFollows() async throws {
        try await withLiveServer { url in
            let editor = try await signedInClient(url, as: "editor", version: .v3_0)
            let reader = try await signedInClient(url, as: "reader", version: .v3_0)
            let feed = AnnouncementFeed(repository: reader.announcements)
            await feed.refresh()
            let before = await feed.list.value?.map(\.id) ?? []
            let following = Task { try await feed.follow(reader.changes(resumingAfter: "0")) }
            defer { following.cancel() }

            let posted = try await editor.announcements.create(AnnouncementDraft(title: "Office closed today"))
            try await waitUntil("the new announcement is listed") { await feed.list.value?.contains { $0.id == posted.id } == true }
            #expect(await feed.list.value?.map(\.id) == before + [posted.id])

            let summary = try #require(await feed.list.value?.first { $0.id == posted.id })
            await feed.open(summary)
            _ = try await editor.announcements.patchUnconditionally(AnnouncementPatch(title: "Office closed today and tomorrow"), id: posted.id)
            try await waitUntil("the open announcement shows the new title") {
                await feed.detail.value?.title == "Office closed today and tomorrow"
            }
            try await editor.announcements.deleteUnconditionally(id: posted.id)
            try await waitUntil("the deleted announcement left the list") { await feed.list.value?.contains { $0.id == posted.id } == false }
            #expect(await feed.detail.value == nil, "the open announcement says it was removed")
        }
    }

    @Test("signing out ends the sequence with unauthorized")
    func signingOutEndsIt() async throws {
        try await withLiveServer { url in
            let reader = IntranetClient(baseURL: url, apiVersion: .v3_0)
            let token = try await reader.session.login(username: "reader", password: liveTestPassword).token
            let other = IntranetClient(baseURL: url)
            let ended = Task { () -> (any Error)? in
                do {
                    for try await _ in reader.changes() {}
                    return nil
                } catch {
                    return error
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            // Logged out elsewhere (another device of the same session).
            _ = try await other.restClient.send(RESTRequest(.post, path: "/logout", headerFields: [.authorization: "Bearer \(token)"]))
            let error = await ended.value
            guard case .unauthorized? = error as? RepositoryError else {
                Issue.record("expected unauthorized, got \(String(describing: error))")
                return
            }
        }
    }

    private func waitUntil(_ what: String, within limit: Duration = .seconds(10), _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while await !condition() {
            try #require(ContinuousClock.now < deadline, "timed out waiting until \(what)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
