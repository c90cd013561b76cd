import FluentKit
import Foundation
import IntranetAPI
import Logging
import SQLKit
import ServiceLifecycle
import Synchronization

/// Keeps the announcements' search index in memory (``AnnouncementSearchSnapshot``) as current as
/// the database, so that `GET /search` ranks, pages and counts thousands of matches without
/// asking the database to (it is still asked for the page's rows, and for phrases).
///
/// Freshness: every change to announcements the ``ChangePipeline`` hands on (a committed write
/// here, one the PostgreSQL change feed announces or a comparison of revisions finds) is counted
/// before the write's answer is sent, and the snapshot is used only once it has taken in every
/// change counted. Until then — a few milliseconds after a write, and while the first snapshot
/// is read at start-up — ``current()`` answers `nil` and the database's index is searched, so a
/// write is found at once either way. The changes a write names are read again by id; one that
/// names none (another instance's, an import) makes this instance compare every announcement's
/// revision with the one it holds. Changes of what readers may see at an instant (a scheduled
/// publication, an expiry) need nothing: the snapshot holds each announcement's window and a
/// search applies it at its own moment.
///
/// Above ``maxPostings`` the announcements are searched in the database only.
final class AnnouncementSearchMemory: Service, ChangeListener, Sendable {
    /// The most postings (one per announcement and distinct word, four bytes each) held.
    static let maxPostings = 100_000_000

    private struct State {
        var snapshot: AnnouncementSearchSnapshot?
        /// Changes to announcements counted, and how many of them the snapshot has taken in.
        var received: UInt64 = 0
        var applied: UInt64 = 0
        /// The announcements changes named since the last update, and whether one named none.
        var changedIDs: Set<Int> = []
        var needsComparison = false
        var declined = false
        var answers = 0
        var isFailing = false
    }

    private let database: any Database
    private let changes: ChangePipeline
    private let logger: Logger
    private let work: BackgroundWork
    private let state = Mutex(State())
    private let requests: AsyncStream<Void>
    private let requestContinuation: AsyncStream<Void>.Continuation
    /// Announcements read per query while the whole snapshot is read.
    let chunkSize: Int
    /// The bodies of announcements found, as plain text, so that finding them again reads
    /// no body.
    let bodies = PlainBodies()
    /// The announcements holding the phrases searched recently, for the current snapshot.
    let phrases = KeptPhrases()

    init(database: any Database, changes: ChangePipeline, logger: Logger, work: BackgroundWork = BackgroundWork(), chunkSize: Int = 500) {
        self.database = database
        self.changes = changes
        self.logger = logger
        self.work = work
        self.chunkSize = chunkSize
        (requests, requestContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A snapshot that has taken in every change counted, and the count to ``confirm(_:)``
    /// an answer with; otherwise `nil`.
    func current() -> (snapshot: AnnouncementSearchSnapshot, stamp: UInt64)? {
        state.withLock { state in
            guard let snapshot = state.snapshot, state.applied == state.received else { return nil }
            return (snapshot, state.received)
        }
    }

    /// Whether an answer found in the snapshot given with `stamp` may be given: no change to
    /// announcements was counted since. Counts the answers given.
    func confirm(_ stamp: UInt64) -> Bool {
        state.withLock { state in
            guard state.received == stamp else { return false }
            state.answers += 1
            return true
        }
    }

    /// The announcements a visibility lets a reader find in the snapshot of `stamp` at `now`,
    /// worked out once per visibility and kept until the snapshot changes or the first
    /// publication or expiry after `now` (a few dozen visibilities: the public, editors and the
    /// readers' shared views).
    func visibleSlots(
        for visibility: Visibility, in snapshot: AnnouncementSearchSnapshot, stamp: UInt64, at now: Date
    ) -> SlotSet {
        let moment = now.timeIntervalSince1970
        let key = KeptVisibility(visibility: visibility)
        if let kept = visibleKept.withLock({ $0[key] }), kept.stamp == stamp, kept.from <= moment, moment < kept.until {
            return kept.slots
        }
        // Searches find what is live, for editors too.
        let (slots, until) = snapshot.visibleSlots(at: moment) { entry in
            entry.isLive(at: moment) && visibility.reaches(id: entry.id, isRestricted: entry.isRestricted)
        }
        visibleKept.withLock { kept in
            if kept.count >= Self.maxVisibilitiesKept { kept.removeAll() }
            kept[key] = (stamp, moment, until, slots)
        }
        return slots
    }

    /// The most visibilities whose slots are kept (12.5 KB each for 100,000 announcements).
    static let maxVisibilitiesKept = 64
    /// By visibility: the slots, for the snapshot of `stamp`, from the moment they were worked
    /// out until the first publication or expiry after it.
    private let visibleKept = Mutex<[KeptVisibility: (stamp: UInt64, from: Double, until: Double, slots: SlotSet)]>([:])

    /// A visibility as a key of what is kept, hashed by its kind and how many announcements it
    /// grants rather than by each of them (hashing a view's thousands of granted ids took a
    /// fortieth of a search); told apart by the whole visibility.
    private struct KeptVisibility: Hashable {
        let visibility: Visibility

        func hash(into hasher: inout Hasher) {
            if case .granted(let ids) = visibility {
                hasher.combine(ids.count)
            } else {
                hasher.combine(visibility)
            }
        }
    }

    /// How many searches were answered from memory (for tests and diagnostics).
    var answers: Int { state.withLock { $0.answers } }

    /// Whether a current snapshot is held (for tests and diagnostics).
    var isReady: Bool { current() != nil }

    func apply(_ change: Change) {
        guard change.domains.contains(.announcements), change.origin != .schedule else { return }
        let ids = change.subjects.compactMap { subject -> Int? in
            if case .announcement(let id, _) = subject { id } else { nil }
        }
        state.withLock { state in
            state.received += 1
            if ids.isEmpty { state.needsComparison = true } else { state.changedIDs.formUnion(ids) }
        }
        if ids.isEmpty { bodies.forgetAll() } else { bodies.forget(ids) }
        requestContinuation.yield()
    }

    /// Reads the snapshot, then takes in changes as they come, until the application shuts down.
    func run() async throws {
        // On PostgreSQL the change feed sets everything remembered aside as it goes live: read
        // after that (waiting at most five seconds for it).
        try? await cancelWhenGracefulShutdown {
            for _ in 0..<50 where !self.changes.trust.isTrusted {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        requestContinuation.yield()
        for await _ in requests.cancelOnGracefulShutdown() {
            guard await work.run({ await update() }) != nil else { return }
            if state.withLock({ $0.isFailing }) {
                // The database is away: try again in a while rather than at every change.
                try? await Task.sleep(for: .seconds(1))
                requestContinuation.yield()
            }
        }
    }

    /// Takes in the changes counted so far: reads the whole snapshot when none is held (or
    /// removed slots have become a quarter of it), otherwise the changed announcements.
    func update() async {
        let (ids, compare, stamp, held, declined) = state.withLock { state in
            defer {
                state.changedIDs = []
                state.needsComparison = false
            }
            return (state.changedIDs, state.needsComparison, state.received, state.snapshot, state.declined)
        }
        guard !declined, held == nil || !ids.isEmpty || compare else { return }
        let started = ContinuousClock.now
        do {
            let next: AnnouncementSearchSnapshot
            if let held, held.removedCount <= max(10_000, held.count / 4) {
                next = try await changed(held, ids: compare ? ids.union(try await differing(from: held)) : ids)
            } else {
                // What is held is stale already (changes are waiting): no use keeping its
                // memory while the next is read.
                state.withLock { $0.snapshot = nil }
                guard let loaded = try await load() else { return }
                next = loaded
                // Once a start-up's (the benchmark waits for it), then at debug level.
                logger.log(
                    level: held == nil ? .info : .debug,
                    "search: \(next.count) announcements (\(next.postingCount) postings) read into memory in \(ContinuousClock.now - started)")
            }
            state.withLock { state in
                state.snapshot = next
                state.applied = stamp
                state.isFailing = false
            }
        } catch {
            let isNew = state.withLock { state in
                state.changedIDs.formUnion(ids)
                state.needsComparison = state.needsComparison || compare
                defer { state.isFailing = true }
                return !state.isFailing
            }
            logger.log(
                level: isNew ? .warning : .debug, "search: could not read announcements into memory; searching the database",
                metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// `held` with announcements `ids` read again (those gone removed). Many at once (an
    /// import) are put in order once at the end, as a load is, rather than one by one.
    private func changed(_ held: AnnouncementSearchSnapshot, ids: Set<Int>) async throws -> AnnouncementSearchSnapshot {
        var next = held
        let many = ids.count > Self.manyChanges
        let ids = ids.sorted()
        for start in stride(from: 0, to: ids.count, by: chunkSize) {
            let chunk = Array(ids[start..<min(start + chunkSize, ids.count)])
            var found = Set<Int>()
            for stored in try await rows(where: .in(chunk)) {
                next.add(stored.row(), sortingLater: many)
                found.insert(stored.entry.id)
            }
            for id in chunk where !found.contains(id) { next.remove(id: id) }
        }
        if many { next.finishLoading() }
        return next
    }

    /// How many changed announcements are indexed as a load is (each put in rank order by
    /// moving the slots after it costs up to 400 KB of copying per 100,000 announcements).
    static let manyChanges = 500

    /// The announcements whose revision or visibility (status, window, restriction: a hand
    /// write may change those without a new revision) in the database differs from `held`'s,
    /// or that one of the two lacks.
    private func differing(from held: AnnouncementSearchSnapshot) async throws -> Set<Int> {
        guard let sql = database as? any SQLDatabase else { return [] }
        var differing = Set<Int>()
        var seen = Set<Int>()
        var last = 0
        let chunk = 5_000
        while true {
            let rows = try await sql.select().columns(AnnouncementSearchSnapshot.Entry.columns).from(AnnouncementModel.schema)
                .where("id", .greaterThan, last).orderBy("id").limit(chunk).all()
            for row in rows {
                let entry = try AnnouncementSearchSnapshot.Entry(row)
                if held.entry(of: entry.id).map({ !$0.isSame(as: entry) }) ?? true { differing.insert(entry.id) }
                seen.insert(entry.id)
                last = entry.id
            }
            if rows.count < chunk { break }
        }
        for id in held.ids where !seen.contains(id) { differing.insert(id) }
        return differing
    }

    /// Reads every announcement into a new snapshot, ``chunkSize`` at a time, cutting the words
    /// of one chunk (in two halves at once) while the next is read; `nil` when there are more
    /// than ``maxPostings`` or the application began to shut down.
    private func load() async throws -> AnnouncementSearchSnapshot? {
        var snapshot = AnnouncementSearchSnapshot()
        var rows = try await self.rows(where: .after(0))
        while !rows.isEmpty {
            let half = rows.count / 2
            let cut = [rows[..<half], rows[half...]].map { part in Task.detached { part.map { $0.row() } } }
            let following = rows.count < chunkSize ? [] : try await self.rows(where: .after(rows[rows.count - 1].entry.id))
            for part in cut {
                for row in await part.value { snapshot.add(row, sortingLater: true) }
            }
            guard snapshot.postingCount <= Self.maxPostings else {
                state.withLock { $0.declined = true }
                logger.notice("search: more than \(Self.maxPostings) postings: announcements are searched in the database only")
                return nil
            }
            guard !work.isClosed, !Task.isShuttingDownGracefully else { return nil }
            rows = following
        }
        snapshot.finishLoading()
        return snapshot
    }

    /// What is read of an announcement before its words are cut.
    private struct StoredRow: Sendable {
        var entry: AnnouncementSearchSnapshot.Entry
        var title: String
        var body: String?
        var attachmentNames: [String]

        func row() -> AnnouncementSearchSnapshot.Row {
            AnnouncementSearchSnapshot.Row(entry, document: AnnouncementSearchIndex.Document(title: title, body: body, attachmentNames: attachmentNames))
        }
    }

    private enum Selection {
        case after(Int)
        case `in`([Int])
    }

    private func rows(where selection: Selection) async throws -> [StoredRow] {
        guard let sql = database as? any SQLDatabase else { return [] }
        var select = sql.select()
            .columns(AnnouncementSearchSnapshot.Entry.columns + ["title", "body"])
            .from(AnnouncementModel.schema)
        switch selection {
        case .after(let id): select = select.where("id", .greaterThan, id).orderBy("id").limit(chunkSize)
        case .in(let ids): select = select.where("id", .in, ids)
        }
        let rows = try await select.all()
        let names = try await AnnouncementSearchIndex.attachmentNames(of: try rows.map { try $0.decode(column: "id", as: Int.self) }, on: sql)
        return try rows.map { row in
            let entry = try AnnouncementSearchSnapshot.Entry(row)
            return StoredRow(
                entry: entry, title: try row.decode(column: "title", as: String.self), body: try row.decode(column: "body", as: String?.self),
                attachmentNames: names[entry.id, default: []])
        }
    }
}

extension AnnouncementSearchSnapshot.Entry {
    /// The columns of `announcements` an entry is read from.
    static let columns = ["id", "revision", "created_at", "status", "publish_at", "expires_at", "is_restricted"]

    /// An entry read from ``columns`` of a row.
    init(_ row: any SQLRow) throws {
        self.init(
            id: try row.decode(column: "id", as: Int.self), revision: try row.decode(column: "revision", as: Int.self),
            createdAt: try row.decode(column: "created_at", as: Date.self).timeIntervalSince1970,
            isPublished: try row.decode(column: "status", as: String.self) == AnnouncementStatus.published.rawValue,
            publishAt: try row.decode(column: "publish_at", as: Date?.self)?.timeIntervalSince1970,
            expiresAt: try row.decode(column: "expires_at", as: Date?.self)?.timeIntervalSince1970,
            isRestricted: try row.decode(column: "is_restricted", as: Bool.self))
    }

    /// Whether `other` is the same revision with the same visibility and rank (a hand write may
    /// change status, window, restriction or creation time without a new revision).
    func isSame(as other: Self) -> Bool {
        revision == other.revision && isPublished == other.isPublished && publishAt == other.publishAt
            && expiresAt == other.expiresAt && isRestricted == other.isRestricted && createdAt == other.createdAt
    }
}
