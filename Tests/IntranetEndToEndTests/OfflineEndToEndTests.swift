import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Testing

/// A store file in a directory of its own.
private func storeFile() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("offline-\(UUID().uuidString)")
        .appendingPathComponent("responses.sqlite")
}

/// A client of `url` keeping answers in `store`.
private func storingClient(
    _ url: URL, store: ResponseStore, policy: StorePolicy = .networkFirst, version: APIVersion = .v2_0
) -> IntranetClient {
    IntranetClient(
        baseURL: url, apiVersion: version,
        configuration: IntranetClientConfiguration(retryPolicy: nil, responseStore: store, storePolicy: policy))
}

@Suite("Offline: the SDK's response store against a live server that is then stopped", .serialized)
struct OfflineEndToEndTests {
    @Test("every policy, before and after the server stops")
    func everyPolicy() async throws {
        let store = ResponseStore(fileURL: storeFile())
        try await withStoppableLiveServer { url, stop in
            let client = storingClient(url, store: store)
            let page = try await client.announcements.read(page: 1, pageSize: 5)
            #expect(page.origin.source == .network)
            let detail = try await client.announcements.readVersioned(id: 2)
            #expect(detail.origin.source == .network)

            await stop()

            // network-first (the default): the stored answers, marked as such, with their age.
            let offlinePage = try await client.announcements.read(page: 1, pageSize: 5)
            #expect(offlinePage.items == page.items)
            #expect(offlinePage.info.total == page.info.total)
            #expect(offlinePage.origin.source == .storeWhileUnreachable)
            #expect(offlinePage.origin.age() < 60)
            let offlineDetail = try await client.announcements.readVersioned(id: 2)
            #expect(offlineDetail.value == detail.value)
            #expect(offlineDetail.origin.source == .storeWhileUnreachable)
            // Something never read: the transport error.
            await #expect {
                try await client.announcements.read(id: 3)
            } throws: { ($0 as? RepositoryError)?.isUnreachable == true }

            // store-first and store-only: from the store, without asking.
            for policy in [StorePolicy.storeFirst, .storeOnly] {
                let read = try await StorePolicy.$current.withValue(policy) { try await client.announcements.readVersioned(id: 2) }
                #expect(read.origin.source == .store, "\(policy)")
                #expect(read.value == detail.value)
            }
            await store.waitForRevalidations()
            await #expect {
                try await StorePolicy.$current.withValue(.storeOnly) { try await client.announcements.read(id: 3) }
            } throws: { error in
                guard case RepositoryError.notStored(let path) = error else { return false }
                return path == "/announcements/3"
            }
            // network-only: the failure itself.
            await #expect {
                try await StorePolicy.$current.withValue(.networkOnly) { try await client.announcements.read(id: 2) }
            } throws: { ($0 as? RepositoryError)?.isUnreachable == true }
        }
    }

    @Test("a stored answer is revalidated with If-None-Match: 304 refreshes it, a change is a full 200", arguments: [APIVersion.v1_0, .v2_0])
    func revalidation(_ version: APIVersion) async throws {
        let store = ResponseStore(fileURL: storeFile())
        try await withLiveServer { url in
            let client = storingClient(url, store: store, version: version)
            let editor = try await signedInClient(url, as: "editor", version: version)
            _ = try await client.announcements.read(page: 1, pageSize: 100)
            let again = try await client.announcements.read(page: 1, pageSize: 100)
            #expect(again.origin.source == .revalidated)
            #expect(again.info.total != nil)

            _ = try await editor.announcements.create(AnnouncementDraft(title: "Fresh news", body: "<p>New</p>"))
            let changed = try await client.announcements.read(page: 1, pageSize: 100)
            #expect(changed.origin.source == .network)
            #expect(changed.items.contains { $0.title == "Fresh news" })
            #expect(changed.items.count == again.items.count + 1)
            if version == .v2_0 {
                _ = try await client.announcements.read(id: 1)
                #expect(try await client.announcements.readVersioned(id: 1).origin.source == .revalidated)
            }
        }
    }

    @Test("writes through the client forget the detail and the lists they change")
    func writesInvalidate() async throws {
        let store = ResponseStore(fileURL: storeFile())
        try await withStoppableLiveServer { url, stop in
            let editor = storingClient(url, store: store)
            _ = try await editor.session.login(username: "editor", password: liveTestPassword)
            _ = try await editor.announcements.read(page: 1, pageSize: 10)
            _ = try await editor.announcements.read(id: 1)
            let second = try await editor.announcements.readVersioned(id: 2)
            _ = try await editor.announcements.update(AnnouncementDraft(title: "Moved again", body: second.body), of: second)

            await stop()
            let kept = try await StorePolicy.$current.withValue(.storeOnly) { try await editor.announcements.read(id: 1) }
            #expect(kept.id == 1, "an announcement not written stays")
            await #expect(throws: RepositoryError.self) {
                try await StorePolicy.$current.withValue(.storeOnly) { try await editor.announcements.read(id: 2) }
            }
            await #expect(throws: RepositoryError.self) {
                try await StorePolicy.$current.withValue(.storeOnly) { try await editor.announcements.read(page: 1, pageSize: 10) }
            }
        }
    }

    @Test("one user's stored answers are never another's, and signing out forgets them")
    func usersAreSeparate() async throws {
        let store = ResponseStore(fileURL: storeFile())
        try await withStoppableLiveServer { url, stop in
            let editor = try await signedInClient(url, as: "editor")
            let secret = try await editor.announcements.create(AnnouncementDraft(title: "Board only", readers: .only([3])))

            let reader = storingClient(url, store: store)
            _ = try await reader.session.login(username: "reader", password: liveTestPassword)
            #expect(try await reader.announcements.read(id: secret.id).title == "Board only")
            let readerList = try await reader.announcements.read(page: 1, pageSize: 100)
            #expect(readerList.items.contains { $0.id == secret.id })

            // The same device signed out: the server's answer, not the reader's stored one.
            let anonymous = storingClient(url, store: store)
            await #expect(throws: RepositoryError.self) { try await anonymous.announcements.read(id: secret.id) }
            let anonymousList = try await anonymous.announcements.read(page: 1, pageSize: 100)
            #expect(anonymousList.origin.source == .network)
            #expect(!anonymousList.items.contains { $0.id == secret.id })

            await reader.session.logout()
            await stop()
            // Offline, signed out: the anonymous list only; the reader's answers are gone.
            let offline = try await anonymous.announcements.read(page: 1, pageSize: 100)
            #expect(offline.origin.source == .storeWhileUnreachable)
            #expect(!offline.items.contains { $0.id == secret.id })
            await #expect(throws: RepositoryError.self) {
                try await StorePolicy.$current.withValue(.storeOnly) { try await reader.announcements.read(id: secret.id) }
            }
            #expect(store.info.entries == 1, "only the anonymous list is left")
        }
    }

    @Test("an announcement that expires is forgotten when the store revalidates it: the server's 404 removes the kept detail, the list drops it, and store-only reads no longer find it")
    func expiryForgotten() async throws {
        let store = ResponseStore(fileURL: storeFile())
        try await withStoppableLiveServer { url, stop in
            let editor = try await signedInClient(url, as: "editor", version: .v3_0)
            // A whole second at least two seconds ahead (the real clock: the server's schedule
            // hides the post at that instant with no write).
            let expiry = Date(timeIntervalSince1970: (Date.now.timeIntervalSince1970 + 2).rounded(.up))
            let canteen = try await editor.announcements.create(
                AnnouncementDraft(title: "Canteen menu this week", body: "<p>Soup</p>", expiresAt: expiry))
            let reader = storingClient(url, store: store, version: .v3_0)
            #expect(try await reader.announcements.read(id: canteen.id).title == "Canteen menu this week")
            #expect(try await reader.announcements.read(page: 1, pageSize: 100).items.contains { $0.id == canteen.id })
            #expect(try await reader.announcements.readVersioned(id: canteen.id).origin.source == .revalidated, "kept, and still current")

            try await Task.sleep(for: .seconds(max(0, expiry.timeIntervalSinceNow) + 0.3))
            // Store first: the kept answer at once (that is the policy), revalidated behind it.
            let shown = try await StorePolicy.$current.withValue(.storeFirst) { try await reader.announcements.readVersioned(id: canteen.id) }
            #expect(shown.origin.source == .store)
            await store.waitForRevalidations()
            await #expect(throws: RepositoryError.self, "the revalidation's 404 removed it") {
                try await StorePolicy.$current.withValue(.storeOnly) { try await reader.announcements.read(id: canteen.id) }
            }
            let list = try await reader.announcements.read(page: 1, pageSize: 100)
            #expect(list.origin.source == .network, "the kept list's ETag no longer matches")
            #expect(!list.items.contains { $0.id == canteen.id })

            await stop()
            let offline = try await reader.announcements.read(page: 1, pageSize: 100)
            #expect(offline.origin.source == .storeWhileUnreachable)
            #expect(!offline.items.contains { $0.id == canteen.id }, "offline, the list kept is the one without it")
            // Offline, the detail is as never read: the transport error, nothing from the store.
            await #expect {
                try await reader.announcements.read(id: canteen.id)
            } throws: { ($0 as? RepositoryError)?.isUnreachable == true }
        }
    }

    @Test("the feed shows stored data at once, then says offline; an announcement never read is a clear error")
    func feedOffline() async throws {
        let file = storeFile()
        try await withStoppableLiveServer { url, stop in
            do {
                let online = AnnouncementFeed(repository: storingClient(url, store: ResponseStore(fileURL: file)).announcements, pageSize: 3)
                await online.refresh()
                let first = await online.snapshot
                #expect(first.list.value?.count == 3)
                #expect(first.listFreshness == .fresh)
                await online.open(try #require(first.list.value?.first))
                #expect(await online.snapshot.detail.isLoaded)
            }
            await stop()

            // A new start of the app, on the train: a new client and feed on the same store file.
            let feed = AnnouncementFeed(repository: storingClient(url, store: ResponseStore(fileURL: file)).announcements, pageSize: 3)
            let snapshots = await feed.snapshots()
            await feed.refresh()
            var seen: [FeedSnapshot] = []
            for await snapshot in snapshots {
                seen.append(snapshot)
                if snapshot.list.isLoaded || snapshot.list.errorMessage != nil { break }
            }
            let stale = try #require(seen.first { $0.list.isLoading && $0.list.value != nil }, "the stored list is shown while loading")
            guard case .stale = stale.listFreshness else {
                Issue.record("expected stale, got \(stale.listFreshness)")
                return
            }
            let final = try #require(seen.last)
            #expect(final.list.value?.count == 3)
            guard case .offline = final.listFreshness else {
                Issue.record("expected offline, got \(final.listFreshness)")
                return
            }
            let items = try #require(final.list.value)
            await feed.open(items[0])
            let opened = await feed.snapshot
            #expect(opened.detail.isLoaded)
            guard case .offline = opened.detailFreshness else {
                Issue.record("expected an offline detail, got \(opened.detailFreshness)")
                return
            }
            await feed.open(items[1])
            let unread = await feed.snapshot
            #expect(unread.detail.errorMessage == "You are offline, and this has not been read on this device yet.")
            #expect(!unread.detail.isLoading)
        }
    }
}
