import Foundation
import RESTRepository

/// The state behind an announcements screen, for any UI (SwiftUI, UIKit, a terminal): the
/// list, the opened announcement, each loading, loaded or failed with a readable message.
///
/// An actor, so calls from any task are safe. Under API 1.0 opening an announcement uses the
/// body the list carried; under 2.0 it fetches the announcement by id. Observe changes with
/// ``snapshots()``.
///
/// With ``acknowledging``, the feed also gives acknowledgements (``acknowledge(_:)``): shown as
/// given at once, then as confirmed when the server answered, or as queued while it cannot be
/// reached; every refresh sends what is queued.
public actor AnnouncementFeed {
    /// The repository the feed reads from.
    public let repository: AnnouncementsRepository
    /// Items per page.
    public let pageSize: Int
    /// The list loaded so far (all pages loaded, in order).
    public private(set) var list: LoadState<[AnnouncementSummary]> = .idle
    /// The opened announcement.
    public private(set) var detail: LoadState<Announcement> = .idle
    /// The id of the opened announcement, or `nil` when none is open.
    public private(set) var openedID: Int?
    /// Whether the server has more pages after those loaded.
    public private(set) var hasMore = false
    /// How current the list is.
    public private(set) var listFreshness = Freshness.fresh
    /// How current the opened announcement is.
    public private(set) var detailFreshness = Freshness.fresh
    /// Where acknowledgements go; `nil`: the feed gives none.
    public let acknowledging: AcknowledgementsRepository?
    /// The acknowledgements this feed gave or found, by announcement id.
    public private(set) var acknowledgements: [Int: AcknowledgementState] = [:]

    private var loadedPages = 0
    private var observers: [UUID: AsyncStream<FeedSnapshot>.Continuation] = [:]

    /// Creates a feed.
    ///
    /// - Parameters:
    ///   - repository: where announcements come from, e.g. `client.announcements`.
    ///   - pageSize: items per page (20 by default).
    ///   - acknowledging: where acknowledgements go, e.g. `client.acknowledgements`.
    public init(repository: AnnouncementsRepository, pageSize: Int = 20, acknowledging: AcknowledgementsRepository? = nil) {
        self.repository = repository
        self.pageSize = pageSize
        self.acknowledging = acknowledging
    }

    /// The state now, in one value.
    public var snapshot: FeedSnapshot {
        FeedSnapshot(
            list: list, detail: detail, openedID: openedID, hasMore: hasMore,
            listFreshness: listFreshness, detailFreshness: detailFreshness, acknowledgements: acknowledgements)
    }

    /// Loads the first page, replacing the list; the old list stays visible while loading.
    /// This is also "pull to refresh".
    ///
    /// With a response store (``IntranetClientConfiguration/responseStore``), a first refresh
    /// shows the stored first page at once (``FeedSnapshot/listFreshness`` `.stale`), then the
    /// server's; when the server cannot be reached the stored page stays, marked `.offline`.
    public func refresh() async {
        list = .loading(previous: list.value)
        publish()
        await sendQueuedAcknowledgements()
        if list.value == nil, hasStore,
           let stored = try? await StorePolicy.$current.withValue(.storeOnly, operation: { try await firstPage() }) {
            list = .loading(previous: stored.items)
            hasMore = stored.hasNext
            listFreshness = Freshness(stored.origin)
            publish()
        }
        do {
            let page = try await firstPage()
            loadedPages = 1
            hasMore = page.hasNext
            list = .loaded(page.items)
            listFreshness = Freshness(page.origin)
        } catch {
            list = .failed(message: message(for: error), previous: list.value)
        }
        publish()
    }

    private func firstPage() async throws -> Page<AnnouncementSummary> {
        try await repository.read(page: 1, pageSize: pageSize)
    }

    private var hasStore: Bool { repository.client.caching != nil }

    /// Loads the next page and appends it; does nothing when no page follows or one is loading.
    public func loadMore() async {
        guard hasMore, !list.isLoading else { return }
        let shown = list.value ?? []
        list = .loading(previous: shown)
        publish()
        do {
            let page = try await repository.read(page: loadedPages + 1, pageSize: pageSize)
            loadedPages += 1
            hasMore = page.hasNext
            list = .loaded(shown + page.items)
            if page.origin.isFromStore, !listFreshness.isStale {
                listFreshness = Freshness(page.origin)
            }
        } catch {
            list = .failed(message: message(for: error), previous: shown)
        }
        publish()
    }

    /// Opens an announcement: at once from the list item when it carried the body (1.0),
    /// otherwise by fetching it (2.0). A later ``open(_:)`` or ``close()`` wins over an
    /// earlier fetch still under way.
    ///
    /// - Parameter summary: the list item the user chose.
    public func open(_ summary: AnnouncementSummary) async {
        openedID = summary.id
        if let announcement = Announcement(summary) {
            detail = .loaded(announcement)
            detailFreshness = listFreshness
            publish()
            return
        }
        detail = .loading(previous: nil)
        detailFreshness = .fresh
        publish()
        let result: LoadState<Announcement>
        var freshness = Freshness.fresh
        do {
            let read = try await repository.readVersioned(id: summary.id)
            result = .loaded(read.value)
            freshness = Freshness(read.origin)
        } catch {
            result = .failed(message: message(for: error), previous: nil)
        }
        guard openedID == summary.id else { return }
        if let asked = result.value?.acknowledgement {
            if let given = asked.acknowledgedAt {
                acknowledgements[summary.id] = .confirmed(at: given)
            } else if case .confirmed? = acknowledgements[summary.id] {
                // Confirmed for an earlier round: the server asks again.
                acknowledgements[summary.id] = nil
            }
        }
        detail = result
        detailFreshness = freshness
        publish()
    }

    /// Acknowledges announcement `id` ("I have read and understood"): shown as
    /// ``AcknowledgementState/sending`` at once, then confirmed, queued (offline, with a
    /// response store: sent on a later refresh) or failed.
    public func acknowledge(_ id: Int) async {
        guard let acknowledging else { return }
        acknowledgements[id] = .sending
        publish()
        // The round the user read, when the opened announcement is this one.
        let round = openedID == id ? detail.value?.acknowledgement?.round : nil
        do {
            switch try await acknowledging.acknowledge(id, round: round) {
            case .confirmed(let receipt): acknowledgements[id] = .confirmed(at: receipt.acknowledgedAt)
            case .queued(let since): acknowledgements[id] = .queued(since: since)
            }
        } catch {
            acknowledgements[id] = .failed(message: message(for: error))
        }
        publish()
    }

    /// Shows the queued acknowledgements as given, then sends them: each one the server
    /// answers becomes confirmed (or failed, when it refused it); the others stay queued.
    private func sendQueuedAcknowledgements() async {
        guard let acknowledging else { return }
        let queued = await acknowledging.queued()
        guard !queued.isEmpty else { return }
        for entry in queued { acknowledgements[entry.announcementID] = .queued(since: entry.since) }
        publish()
        for (id, result) in await acknowledging.sendQueued() {
            switch result {
            case .success(let receipt): acknowledgements[id] = .confirmed(at: receipt.acknowledgedAt)
            case .failure(let error): acknowledgements[id] = .failed(message: error.userMessage)
            }
        }
        publish()
    }

    /// Keeps the feed current from the server's live stream (``IntranetClient/changes(resumingAfter:reconnection:)``)
    /// until the calling task is cancelled or the stream ends (``LiveChanges`` tells how):
    /// each change is applied as ``apply(_:)`` says.
    ///
    /// - Throws: what ends the stream: `RepositoryError.unauthorized` when the session ends.
    public func follow(_ changes: LiveChanges) async throws {
        for try await change in changes {
            await apply(change)
        }
    }

    /// Applies one change of the live stream: a deleted announcement leaves the list at once
    /// (and, when it is the one open, the detail says so); anything else about announcements
    /// reads the list again — new ones appear, changed ones refresh, and the offline store is
    /// revalidated on the way (unchanged answers cost a `304`) — and the open announcement too
    /// when it is the one that changed. Changes of people leave the feed as it is.
    public func apply(_ change: LiveChange) async {
        switch change.kind {
        case .personChanged:
            return
        case .announcementDeleted:
            if let items = list.value, let id = change.id {
                list = .loaded(items.filter { $0.id != id })
            }
            if let id = change.id, openedID == id {
                detail = .failed(message: "This announcement was removed, or is no longer shared with you.", previous: nil)
            }
            publish()
        case .announcementCreated, .announcementChanged, .reset:
            await refresh()
            if let opened = openedID, change.kind == .reset || change.id == opened,
               let summary = list.value?.first(where: { $0.id == opened }) {
                await open(summary)
            }
        }
    }

    /// Closes the opened announcement.
    public func close() {
        openedID = nil
        detail = .idle
        detailFreshness = .fresh
        publish()
    }

    /// A stream that yields the current state at once and again after every change.
    public func snapshots() -> AsyncStream<FeedSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedSnapshot.self)
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        continuation.yield(snapshot)
        return stream
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func publish() {
        let current = snapshot
        for continuation in observers.values {
            continuation.yield(current)
        }
    }

    private func message(for error: any Error) -> String {
        guard let error = error as? RepositoryError else { return "Something went wrong: \(error)" }
        if hasStore, error.isUnreachable {
            return "You are offline, and this has not been read on this device yet."
        }
        return error.userMessage
    }
}
