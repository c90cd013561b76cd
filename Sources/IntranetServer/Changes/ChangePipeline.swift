import FluentKit
import Foundation
import Synchronization

/// The one way a change travels through the server.
///
/// Every write — announcements, readers, people, accounts and sessions, imports — runs in
/// ``write(_:on:_:)``, which commits it together with the revision of each domain it changed
/// (``ChangeRevisions``), then, before the caller answers:
/// 1. moves on the in-memory generation of exactly those domains (``generations``);
/// 2. hands the ``Change`` to every ``ChangeListener`` (the response cache drops the answers
///    that depend on those domains; remembered sessions of a changed account are forgotten);
/// 3. publishes it to every subscriber of ``changes()``, numbered in order.
///
/// The write's subjects also go into the durable change log (``ChangeLog``), in the write's own
/// transaction: what live streams on every instance tell readers, and resume from.
///
/// Changes made elsewhere arrive the same way: the PostgreSQL change feed names the domains
/// its triggers saw (``receive(_:)``, so writes by hand in psql count too), and where memory is
/// not trusted, ``catchUp()`` compares the database's revisions with the newest seen.
/// Controllers and repositories say what changed; nothing else invalidates or bumps.
final class ChangePipeline: Sendable {
    private struct State {
        var generations = DomainGenerations()
        /// The newest revision of each domain seen by ``catchUp()`` or made by this instance.
        var revisions: [ChangeDomain: Int64] = [:]
        /// Revisions this instance's writes made above the newest seen (writes may be noted out
        /// of order), so a comparison does not take them for another's.
        var ownRevisions: [ChangeDomain: Set<Int64>] = [:]
        var listeners: [any ChangeListener] = []
        var subscribers: [UInt64: AsyncStream<Change>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var sequence: UInt64 = 0
    }

    /// Whether this instance's memory may be used without asking the database.
    let trust: ChangeTrust
    /// Where ``catchUp()`` reads the revisions; without one (unit tests) it reads none.
    let database: (any Database)?
    /// The clock the change log's entries are dated by.
    let now: @Sendable () -> Date
    private let state = Mutex(State())
    /// Held while one change is handed out, so the next waits for it (never while `state` is).
    private let publishing = Mutex(())

    init(database: (any Database)? = nil, trust: ChangeTrust = .always(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.trust = trust
        self.now = now
    }

    // MARK: Listening

    /// Adds a listener; every change from now on reaches it, in commit order.
    func add(_ listener: any ChangeListener) {
        state.withLock { $0.listeners.append(listener) }
    }

    /// Every change from now on, in order, each with its ``Change/sequence`` one above the last
    /// (a gap means the subscriber fell more than `limit` changes behind and missed some).
    func changes(bufferingNewest limit: Int = 1_024) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .bufferingNewest(limit))
        let id = state.withLock { state in
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The current generation of every domain.
    var generations: DomainGenerations {
        state.withLock { $0.generations }
    }

    // MARK: Writes

    /// Runs `body` in a transaction that also counts the change in the database's revisions,
    /// then applies the change (see the type's documentation).
    ///
    /// `body` receives the change as it stands (its `domains` are what the caller declared) and
    /// may add the subjects it touched, or domains it found it changed (a deleted account linked
    /// to a person changes the directory too), or empty the domains when it wrote nothing (an
    /// update to what is already stored). If the transaction fails, the declared domains
    /// are still applied: a commit may have happened before the failure was reported, and
    /// letting go of remembered data is always safe.
    func write<T: Sendable>(
        _ domains: ChangeDomains, on database: any Database,
        _ body: @escaping @Sendable (_ database: any Database, _ change: inout Change) async throws -> T
    ) async throws -> T {
        let result: (T, Change)
        // The revisions are taken as this instance's own before the commit: a comparison
        // (`catchUp(with:)`) running between the commit and the change's being applied must not
        // take them for another process's write.
        let noted = Mutex<[ChangeDomain: Int64]>([:])
        do {
            result = try await database.transaction { database in
                var change = Change(domains: domains)
                let value = try await body(database, &change)
                try await ChangeLog.append(ChangeLog.entries(of: change, at: self.now()), on: database)
                let revisions = try await ChangeRevisions.bump(change.domains, on: database)
                self.noteOwn(revisions)
                noted.withLock { $0 = revisions }
                return (value, change)
            }
        } catch {
            forgetOwn(noted.withLock { $0 })
            apply(Change(domains: domains))
            throw error
        }
        if !result.1.domains.isEmpty { apply(result.1) }
        return result.0
    }

    /// Applies a change committed by other means than ``write(_:on:_:)`` (storage that is not a
    /// database, in tests).
    func committed(_ change: Change) {
        apply(change)
    }

    /// Applies the change of what readers see at an instant that came with no write
    /// (``Change/Origin/schedule``): to announcements, on this instance only.
    func passed(_ domains: ChangeDomains) {
        apply(Change(domains: domains, origin: .schedule))
    }

    /// Applies a change made elsewhere, naming only its domains.
    func receive(_ domains: ChangeDomains) {
        apply(Change(domains: domains, origin: .remote))
    }

    /// Applies a change made elsewhere, as the change feed describes it (the account it
    /// concerns, when it names one).
    func receive(_ change: Change) {
        var change = change
        change.origin = .remote
        apply(change)
    }

    /// Where memory is not trusted on its own, reads the database's revisions and applies, as a
    /// remote change, every domain whose revision moved past the newest seen. A revision older
    /// than one seen changes nothing: the caller's query runs after the newer one committed.
    func catchUp() async throws {
        guard !trust.isTrusted, let database else { return }
        catchUp(with: try await ChangeRevisions.read(on: database))
    }

    /// Takes `revisions` as seen, applying nothing: where everything remembered is read after
    /// them (at start-up), so that only later writes count in ``catchUp(with:)``.
    func start(from revisions: [ChangeDomain: Int64]) {
        state.withLock { state in
            for (domain, revision) in revisions { state.revisions[domain] = max(state.revisions[domain] ?? revision, revision) }
        }
    }

    /// Takes the revisions this instance's own write made as seen, when each follows the newest
    /// seen directly; after a gap (another process wrote in between) the newest seen stays, so
    /// the next comparison counts the other write.
    func noteOwn(_ revisions: [ChangeDomain: Int64]) {
        state.withLock { state in
            for (domain, revision) in revisions {
                guard var known = state.revisions[domain], revision > known else { continue }
                var own = state.ownRevisions[domain, default: []]
                own.insert(revision)
                while own.remove(known + 1) != nil { known += 1 }
                state.revisions[domain] = known
                // Above a gap nothing is folded in until a comparison: keep that bounded.
                state.ownRevisions[domain] = own.count > 10_000 ? [] : own
            }
        }
    }

    /// Takes back revisions noted as own by a write whose transaction then failed: the
    /// database will give those numbers again, perhaps to another process, whose write must then
    /// count.
    private func forgetOwn(_ revisions: [ChangeDomain: Int64]) {
        guard !revisions.isEmpty else { return }
        state.withLock { state in
            for (domain, revision) in revisions {
                state.ownRevisions[domain]?.remove(revision)
                if let known = state.revisions[domain], known >= revision { state.revisions[domain] = revision - 1 }
            }
        }
    }

    /// Compares `revisions` with the newest seen (the first comparison counts as a change).
    func catchUp(with revisions: [ChangeDomain: Int64]) {
        let moved = state.withLock { state in
            var moved: ChangeDomains = []
            for (domain, revision) in revisions {
                if let known = state.revisions[domain] {
                    if revision <= known { continue }
                    let own = state.ownRevisions[domain, default: []]
                    let isAllOwn = revision - known <= Int64(own.count) && (known + 1...revision).allSatisfy(own.contains)
                    state.ownRevisions[domain] = own.filter { $0 > revision }
                    state.revisions[domain] = revision
                    if isAllOwn { continue }
                } else {
                    state.revisions[domain] = revision
                }
                moved.insert(ChangeDomains(domain))
            }
            return moved
        }
        if !moved.isEmpty { receive(moved) }
    }

    /// Moves the generations on, tells the listeners, then the subscribers: one change at a
    /// time, so listeners and subscribers see changes in the order of their sequence numbers.
    private func apply(_ change: Change) {
        publishing.withLock { _ in
            let (listeners, subscribers, published) = state.withLock { state in
                state.generations.advance(change.domains)
                state.sequence += 1
                var published = change
                published.sequence = state.sequence
                return (state.listeners, Array(state.subscribers.values), published)
            }
            for listener in listeners {
                listener.apply(published)
            }
            for subscriber in subscribers {
                subscriber.yield(published)
            }
        }
    }
}
