import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import Logging
import RESTRepository
import Synchronization
import Testing
@testable import IntranetServer

/// Counts the acknowledgement `PUT`s that reached the server (a response came back).
private final class PutCounter: Transport, Sendable {
    let base: URLSessionTransport
    private let answered = Mutex(0)

    init(_ url: URL) {
        base = URLSessionTransport(baseURL: url)
    }

    var count: Int { answered.withLock { $0 } }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let answer = try await base.send(request, body: body)
        if request.method == .put, request.path?.hasSuffix("/acknowledgement") == true {
            answered.withLock { $0 += 1 }
        }
        return answer
    }
}

@Suite("Acknowledgements: the SDK against a live server that stops and starts again", .serialized)
struct AcknowledgementEndToEndTests {
    @Test("an acknowledgement made offline shows as given at once, is kept in the store's outbox, and is sent once when the server is back")
    func offlineQueue() async throws {
        let server = RestartableServer()
        try await server.start()
        let url = server.url
        let editor = try await signedInClient(url, as: "editor", version: .v3_0)
        let post = try await editor.announcements.create(AnnouncementDraft(
            title: "Fire drill on Friday", body: "<p>Assemble in the car park.</p>", acknowledgement: AcknowledgementSetting(dueAt: nil)))
        #expect(post.acknowledgement?.round == 1)

        let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("ack-store-\(UUID().uuidString).sqlite")
        let store = ResponseStore(fileURL: storeURL)
        let counter = PutCounter(url)
        let configuration = IntranetClientConfiguration(retryPolicy: nil, responseStore: store)
        let reader = IntranetClient(transport: counter, apiVersion: .v3_0, configuration: configuration)
        _ = try await reader.session.login(username: "reader", password: liveTestPassword)
        let pending = try await reader.acknowledgements.pending()
        #expect(pending.items.map(\.id) == [post.id])
        let feed = AnnouncementFeed(repository: reader.announcements, acknowledging: reader.acknowledgements)
        await feed.refresh()
        // The editor's own queue, to see that the reader's sign-out leaves it.
        let otherStore = ResponseStore(fileURL: storeURL)
        let editorOffline = IntranetClient(baseURL: url, apiVersion: .v3_0, configuration: IntranetClientConfiguration(retryPolicy: nil, responseStore: otherStore))
        _ = try await editorOffline.session.login(username: "editor", password: liveTestPassword)

        await server.stop()
        await feed.acknowledge(post.id)
        guard case .queued? = await feed.acknowledgements[post.id] else {
            Issue.record("not queued: \(String(describing: await feed.acknowledgements[post.id]))")
            return
        }
        #expect(await feed.snapshot.acknowledgements[post.id]?.isGiven == true, "shown as given at once")
        #expect(try await reader.acknowledge(post.id) == .queued(since: try #require(await reader.acknowledgements.queued().first?.since)))
        #expect(await reader.acknowledgements.queued().map(\.announcementID) == [post.id], "queued once")
        let editorOutcome = try await editorOffline.acknowledge(post.id)
        guard case .queued = editorOutcome else {
            Issue.record("the editor's acknowledgement, offline, is queued: \(editorOutcome)")
            return
        }
        #expect(await editorOffline.acknowledgements.queued().count == 1)
        #expect(counter.count == 0)

        try await server.start()
        await feed.refresh()
        guard case .confirmed? = await feed.acknowledgements[post.id] else {
            Issue.record("not confirmed: \(String(describing: await feed.acknowledgements[post.id]))")
            return
        }
        #expect(counter.count == 1, "one PUT reached the server")
        #expect(await reader.acknowledgements.queued().isEmpty)
        await feed.refresh()
        #expect(counter.count == 1, "nothing sent twice")
        let reach = try await editor.acknowledgements.reach(post.id)
        #expect(reach.acknowledged == 1 && reach.audience == 3)
        #expect(try await reader.acknowledgements.pending().items.isEmpty)
        let detail = try await reader.announcements.read(id: post.id)
        #expect(detail.acknowledgement?.acknowledgedAt != nil)

        // Signing out drops the reader's queue only.
        await server.stop()
        _ = try await reader.acknowledge(post.id)
        #expect(await reader.acknowledgements.queued().count == 1)
        _ = await reader.session.logout()
        #expect(store.queued(scope: url.absoluteString, partition: "user:3").isEmpty)
        #expect(await editorOffline.acknowledgements.queued().count == 1, "the editor's stays")
        try await server.start()
        let sent = await editorOffline.acknowledgements.sendQueued()
        #expect(sent.count == 1 && (try? sent[post.id]?.get().round) == 1)
        await server.stop()
    }
}
