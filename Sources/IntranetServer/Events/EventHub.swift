import FluentKit
import Foundation
import IntranetAPI
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// Hands the change log to every open live stream of this instance (`GET /events`), each
/// reader seeing only what they may read.
///
/// One task (``run()``) does all the work, so every stream gets its entries in log order, once:
/// it reads the entries after the newest it handled (``ChangeLog``) whenever the pipeline
/// reports a change of announcements or people (this instance's writes, the change feed's, the
/// clock's) and at least every ``Settings/poll``; replays the entries a reconnecting stream
/// missed (`Last-Event-ID`); records the entries the clock makes (a scheduled post published,
/// an expiry, the end of a pin), once across instances; prunes the log; re-checks each stream's
/// session; and sends heartbeats.
///
/// Per stream it holds a ``EventQueue`` (bounded) and a few numbers: where the stream stands in
/// the log, and who reads it. What each reader is told of an entry is decided in
/// `EventHub+Decision.swift`, the clock's entries are made by ``ChangeLog/recordMoments(after:through:on:)``.
///
/// One piece, past 300 lines: the streams' positions, the replays and the session checks share
/// one lock, and "every stream gets every entry once, in order" holds only while every path
/// reads and moves them under it.
final class EventHub: Service, ChangeListener, Sendable {
    /// Limits and rhythms.
    struct Settings: Sendable {
        /// Most messages kept for a client that reads too slowly; past it the stream ends.
        var queueLimit = 256
        /// How often an idle stream gets a comment, so proxies keep it open.
        var heartbeat: Duration = .seconds(15)
        /// How often each stream's session is checked (signed-out or expired sessions end their
        /// streams); logouts through any instance end them at once.
        var sessionCheck: Duration = .seconds(2)
        /// Longest time between two reads of the log (writes through other instances whose
        /// notification was lost, entries the clock made elsewhere).
        var poll: Duration = .seconds(1)
        /// The log keeps at most this many entries…
        var keptEntries: Int64 = 50_000
        /// …none older than this.
        var keptFor: TimeInterval = 7 * 86_400
        /// The reconnection delay a stream asks for, in milliseconds, drawn in this range.
        var retry: ClosedRange<Int> = 2_000...7_000

        init() {}
    }

    /// Who reads a stream.
    struct Viewer: Sendable {
        /// `nil` signed out.
        var user: User?
        /// The session's token, to check it is still valid.
        var token: String?

        var isEditor: Bool { user.map { $0.role >= .editor } ?? false }
    }

    private struct Subscriber {
        var viewer: Viewer
        let queue: EventQueue
        /// The newest log entry handled for this stream.
        var position: Int64
        /// The newest id the client was given (an event's, or a bare `id:`).
        var told: Int64
        /// Set while the entries after it, up to the hub's position, must be replayed first.
        var replayFrom: Int64?
        var checkedAt: ContinuousClock.Instant
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        /// The newest log entry handled; `nil` until first read.
        var position: Int64?
        var pruned: Int64 = 0
        var wake: AsyncStream<Void>.Continuation?
        var scheduleDue = true
        /// Accounts whose streams' sessions are checked at the next step (`nil`: all).
        var accountsDue: Set<Int>? = []
        var lastHeartbeat = ContinuousClock.now
        var lastPrune: ContinuousClock.Instant?
        /// Up to when the clock's entries were recorded.
        var scheduledThrough: Date?
        /// The next moment the clock makes an entry, as last read.
        var nextMoment: Date?
    }

    let settings: Settings
    private let database: any Database
    private let cache: ResponseCache
    private let people: FluentPersonRepository
    private let auth: AuthService
    private let work: BackgroundWork
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let state = Mutex(State())

    init(
        database: any Database, cache: ResponseCache, people: FluentPersonRepository, auth: AuthService, work: BackgroundWork,
        settings: Settings = Settings(), now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.database = database
        self.cache = cache
        self.people = people
        self.auth = auth
        self.work = work
        self.settings = settings
        self.now = now
        self.logger = logger
    }

    // MARK: Streams

    /// A stream's handle: its queue, and its number to ``close(_:)`` it with.
    struct Subscription: Sendable {
        let id: UInt64
        let queue: EventQueue
    }

    /// Opens a stream for `viewer`, resuming after `lastEventID` when the log still holds what
    /// followed it; otherwise (an id from before the log's horizon, or one this log never gave)
    /// the stream starts with `reset`.
    func open(for viewer: Viewer, lastEventID: String?) async throws -> Subscription {
        let bounds = try await ChangeLog.bounds(on: database)
        let queue = EventQueue(limit: settings.queueLimit)
        let retry = Int.random(in: settings.retry)
        let resume = lastEventID.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        let id = state.withLock { state -> UInt64 in
            let position = max(state.position ?? bounds.newest, 0)
            state.position = position
            state.pruned = max(state.pruned, bounds.pruned)
            // Every new stream first replays from where it starts, up to the hub's position at
            // the next step: live batches leave it out until then, so an entry handed on while it
            // was being opened is neither missed nor given twice.
            var subscriber = Subscriber(viewer: viewer, queue: queue, position: position, told: position, replayFrom: position, checkedAt: .now)
            if let resume, resume >= state.pruned, resume <= bounds.newest {
                queue.push(ServerSentEvents.opening(retry: retry, position: resume))
                subscriber.position = resume
                subscriber.told = resume
                subscriber.replayFrom = resume
            } else {
                queue.push(ServerSentEvents.opening(retry: retry, position: position))
                if lastEventID != nil {
                    queue.push(ServerSentEvents.event(id: position, name: "reset", payload: nil))
                }
            }
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = subscriber
            return state.nextID
        }
        wake()
        return Subscription(id: id, queue: queue)
    }

    /// Forgets a stream (its response ended).
    func close(_ subscription: Subscription) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: subscription.id) }
    }

    /// How many streams are open.
    var streamCount: Int { state.withLock { $0.subscribers.count } }

    /// The newest entry of the log: the hub's position, or the log's when the hub has not read
    /// it yet.
    func newestEntry() async throws -> Int64 {
        if let position { return position }
        return try await ChangeLog.bounds(on: database).newest
    }

    /// The newest log entry the hub has handled (`nil` before it first read the log).
    var position: Int64? { state.withLock { $0.position } }

    /// The oldest log position among open streams (every stream has been handed every entry up
    /// to it); `nil` with none open.
    var slowestPosition: Int64? { state.withLock { $0.subscribers.values.map(\.position).min() } }

    // MARK: Changes

    func apply(_ change: Change) {
        let wakes = state.withLock { state in
            // A write of announcements may set a new moment; the clock's change is one.
            if change.origin == .schedule || change.domains.contains(.announcements) { state.scheduleDue = true }
            if change.domains.contains(.accounts), let due = state.accountsDue {
                if let accounts = change.accounts { state.accountsDue = due.union(accounts) } else { state.accountsDue = nil }
            }
            return !change.domains.isDisjoint(with: [.announcements, .people, .accounts]) || change.origin == .schedule
        }
        if wakes { wake() }
    }

    private func wake() {
        state.withLock { $0.wake }?.yield()
    }

    // MARK: The work

    /// Works until the server shuts down; then ends every stream still open.
    func run() async throws {
        let (wakes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.wake = continuation }
        let poll = settings.poll
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: poll)
                        continuation.yield()
                    }
                }
                for await _ in wakes {
                    await self.step()
                }
                group.cancelAll()
            }
        }
        closeAll(with: .shutdown)
    }

    /// Ends every open stream with `reason`.
    func closeAll(with reason: EventStreamEnd) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) {
            subscriber.queue.close(with: reason)
        }
    }

    private func step() async {
        do {
            _ = try await work.run {
                try await self.recordSchedule()
                try await self.prune()
                try await self.replay()
                try await self.tail()
            }
            await checkSessions()
            heartbeat()
        } catch {
            logger.warning("live streams could not read the change log", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// Reads the new entries of the log and hands them to every stream not replaying.
    private func tail() async throws {
        let (position, hasStreams) = state.withLock { ($0.position, !$0.subscribers.isEmpty) }
        guard let position, hasStreams else {
            // No stream to hand entries to: only where the log stands matters.
            let newest = try await ChangeLog.bounds(on: database).newest
            state.withLock { $0.position = max($0.position ?? newest, newest) }
            return
        }
        var after = position
        while true {
            let entries = try await ChangeLog.entries(after: after, limit: 500, on: database)
            guard let last = entries.last else { return }
            try await deliver(try await prepare(entries), only: nil)
            after = last.id
            state.withLock { $0.position = max($0.position ?? last.id, last.id) }
            if entries.count < 500 { return }
        }
    }

    /// Hands the entries a reconnecting stream missed to it alone, up to the hub's position.
    private func replay() async throws {
        let waiting = state.withLock { state in
            state.subscribers.compactMap { id, subscriber in subscriber.replayFrom.map { (id, $0) } }
        }
        for (id, from) in waiting {
            let (through, pruned) = state.withLock { ($0.position ?? from, $0.pruned) }
            if from < pruned, let queue = state.withLock({ $0.subscribers[id]?.queue }) {
                // The log was pruned past it meanwhile: what it missed is gone.
                queue.push(ServerSentEvents.event(id: through, name: "reset", payload: nil))
                state.withLock { $0.subscribers[id]?.position = through }
            }
            var after = max(from, state.withLock { $0.subscribers[id]?.position ?? through })
            var pushed = 0
            while after < through, let queue = state.withLock({ $0.subscribers[id]?.queue }) {
                let entries = try await ChangeLog.entries(after: after, limit: 500, on: database).filter { $0.id <= through }
                guard let last = entries.last else { break }
                pushed += try await deliver(try await prepare(entries), only: id)
                after = last.id
                // More missed than a queue holds: what is left is one `reset`.
                if pushed > settings.queueLimit / 2, after < through {
                    queue.push(ServerSentEvents.event(id: through, name: "reset", payload: nil))
                    state.withLock { $0.subscribers[id]?.position = through }
                    break
                }
            }
            state.withLock { state in
                state.subscribers[id]?.replayFrom = nil
                if let position = state.subscribers[id]?.position, position < through { state.subscribers[id]?.position = through }
            }
        }
    }

    private func prepare(_ entries: [ChangeLogEntry]) async throws -> [Prepared] {
        let announcementIDs = Set(entries.filter { $0.kind != .person && $0.kind != .reset }.compactMap(\.subject))
        var announcements: [Int: StoredAnnouncement] = [:]
        if !announcementIDs.isEmpty {
            let models = try await AnnouncementModel.query(on: database).filter(\.$id ~~ Array(announcementIDs)).all()
            for announcement in try await FluentAnnouncementRepository.stored(models, on: database) {
                announcements[announcement.id] = announcement
            }
        }
        var personTags: [Int: String] = [:]
        for id in Set(entries.filter { $0.kind == .person }.compactMap(\.subject)) {
            personTags[id] = try await PersonRepresentation.detailTag(of: id, in: people)
        }
        return entries.map { entry in
            Prepared(
                entry: entry,
                announcement: entry.kind == .person ? nil : entry.subject.flatMap { announcements[$0] },
                personTag: entry.kind == .person ? entry.subject.flatMap { personTags[$0] } : nil)
        }
    }

    /// Hands `entries` to every stream (or to stream `only`) past whose position they are.
    ///
    /// - Returns: how many messages were queued.
    @discardableResult
    private func deliver(_ entries: [Prepared], only: UInt64?) async throws -> Int {
        let subscribers = state.withLock { state -> [(UInt64, Subscriber)] in
            if let only { return state.subscribers[only].map { [(only, $0)] } ?? [] }
            return state.subscribers.filter { $0.value.replayFrom == nil }.map { ($0.key, $0.value) }
        }
        // Readers' views only matter for announcements some readers may not read.
        let needsViews = entries.contains { $0.announcement?.isRestricted == true }
        var views: [Int: Visibility] = [:]
        let now = now()
        var moved: [UInt64: (position: Int64, told: Int64?)] = [:]
        var queued = 0
        struct Written: Hashable {
            var entry: Int
            var event: Event
        }
        var written: [Written: ByteBuffer] = [:]
        for (id, subscriber) in subscribers {
            var visibility = Visibility.unrestricted
            if let user = subscriber.viewer.user {
                if subscriber.viewer.isEditor {
                    visibility = .everything
                } else if needsViews {
                    if let known = views[user.id] {
                        visibility = known
                    } else {
                        visibility = try await cache.view(for: user).visibility
                        views[user.id] = visibility
                    }
                } else {
                    visibility = .granted([])
                }
            }
            var position = subscriber.position
            var told: Int64?
            var messages: [ByteBuffer] = []
            for (index, prepared) in entries.enumerated() where prepared.entry.id > subscriber.position {
                position = prepared.entry.id
                guard let event = Self.event(for: prepared, to: subscriber.viewer, seeing: visibility, at: now) else { continue }
                // Most streams get the same bytes: written out once per entry and event.
                let message = written[Written(entry: index, event: event)] ?? {
                    let message = ServerSentEvents.event(id: prepared.entry.id, name: event.name, payload: event.payload)
                    written[Written(entry: index, event: event)] = message
                    return message
                }()
                messages.append(message)
                told = prepared.entry.id
            }
            // A burst (an import, a long replay) larger than half a stream's queue is one
            // `reset`: read everything again, rather than a queue that overflows.
            if messages.count > settings.queueLimit / 2 {
                messages = [ServerSentEvents.event(id: position, name: "reset", payload: nil)]
                told = position
            }
            for message in messages { subscriber.queue.push(message) }
            queued += messages.count
            if position > subscriber.position { moved[id] = (position, told) }
        }
        state.withLock { state in
            for (id, move) in moved {
                guard var subscriber = state.subscribers[id], move.position > subscriber.position else { continue }
                subscriber.position = move.position
                if let told = move.told { subscriber.told = max(subscriber.told, told) }
                state.subscribers[id] = subscriber
            }
        }
        return queued
    }

    // MARK: Upkeep

    /// Records the entries the clock made since the last look: publications, expiries and ends
    /// of pins (the first look reaches back as far as the log keeps).
    private func recordSchedule() async throws {
        let now = now()
        let since: Date? = state.withLock { state in
            let isDue = state.scheduleDue || (state.nextMoment.map { now >= $0 } ?? false)
                || (state.scheduledThrough.map { now.timeIntervalSince($0) >= 10 } ?? true)
            guard isDue else { return nil }
            state.scheduleDue = false
            return state.scheduledThrough ?? now.addingTimeInterval(-settings.keptFor)
        }
        guard let since else { return }
        try await ChangeLog.recordMoments(after: since, through: now, on: database)
        let next = try await FluentAnnouncementRepository.nextVisibilityChange(after: now, on: database)
        state.withLock { state in
            state.scheduledThrough = now
            state.nextMoment = next
        }
    }

    /// Prunes the log once a minute.
    private func prune() async throws {
        let isDue = state.withLock { state in
            guard state.lastPrune.map({ ContinuousClock.now - $0 >= .seconds(60) }) ?? true else { return false }
            state.lastPrune = .now
            return true
        }
        guard isDue else { return }
        try await ChangeLog.prune(keeping: settings.keptEntries, olderThan: now().addingTimeInterval(-settings.keptFor), on: database)
        let pruned = try await ChangeLog.bounds(on: database).pruned
        state.withLock { $0.pruned = max($0.pruned, pruned) }
    }

    /// Ends the streams whose session ended: those of accounts a change named at once, the
    /// others every ``Settings/sessionCheck``.
    private func checkSessions() async {
        let now = ContinuousClock.now
        let due = state.withLock { state -> [(UInt64, String)] in
            let accounts = state.accountsDue
            state.accountsDue = []
            return state.subscribers.compactMap { id, subscriber in
                guard let token = subscriber.viewer.token, let user = subscriber.viewer.user else { return nil }
                let named = accounts.map { $0.contains(user.id) } ?? true
                guard named || now - subscriber.checkedAt >= settings.sessionCheck else { return nil }
                return (id, token)
            }
        }
        for (id, token) in due {
            let user: User?
            do {
                user = try await auth.user(forToken: token).api
            } catch let error as APIError where error.status == .unauthorized {
                user = nil
            } catch {
                continue  // the database is away: checked again next time
            }
            let queue = state.withLock { state -> EventQueue? in
                guard var subscriber = state.subscribers[id] else { return nil }
                subscriber.checkedAt = now
                if let user {
                    subscriber.viewer.user = user
                    state.subscribers[id] = subscriber
                    return nil
                }
                state.subscribers[id] = nil
                return subscriber.queue
            }
            queue?.close(with: .signedOut)
        }
    }

    /// Every ``Settings/heartbeat``, a comment to every stream, moving its resume point past the
    /// entries it was not shown.
    private func heartbeat() {
        let beats = state.withLock { state -> [(EventQueue, Int64?)] in
            guard ContinuousClock.now - state.lastHeartbeat >= settings.heartbeat else { return [] }
            state.lastHeartbeat = .now
            return state.subscribers.keys.compactMap { id in
                guard var subscriber = state.subscribers[id], subscriber.replayFrom == nil else { return nil }
                let moved = subscriber.position > subscriber.told ? subscriber.position : nil
                subscriber.told = subscriber.position
                state.subscribers[id] = subscriber
                return (subscriber.queue, moved)
            }
        }
        for (queue, position) in beats {
            queue.push(ServerSentEvents.heartbeat(position: position))
        }
    }
}
