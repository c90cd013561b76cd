import Foundation
import HTTPTypes
import IntranetAPI
import NIOConcurrencyHelpers
import NIOCore

/// Encoded answers of the read routes, so a read costs a lookup instead of a query and an
/// encoding; kept once per *view* (what a kind of caller may see), not once per caller.
///
/// Two kinds of entries share one ``BoundedCache`` (one limit, one eviction policy): the routes'
/// own entries, keyed by what the route decided (version, view, query), and whole answers keyed
/// by the request as it came off the socket (``PublicAnswerKey``), which ``PublicAnswerHandler``
/// serves without entering the application. Each entry names the ``ChangeDomains`` it was read
/// from.
///
/// Views: signed out (`public`), editors and admins (`all`), and readers, who share a view with
/// every reader named in the same restricted announcements (``view(for:)``). Which restricted
/// announcements name whom is kept here too, read in one query after each change of
/// announcements, so that a reader's view costs a dictionary lookup.
///
/// Time: readers see an announcement only between its publication and expiry, and pinned
/// first until its pin ends, with no write at those instants. The cache knows the next one for
/// the current generation of announcements (``VisibilitySchedule``): answers about announcements
/// are neither used nor kept from that instant on, and the first request (or a timer) to notice
/// it announces a change of announcements through the pipeline (``ChangePipeline/passed(_:)``),
/// which drops them as a write would.
///
/// Correctness rules:
/// - The cache is a ``ChangeListener`` of the ``ChangePipeline``: every committed write drops
///   the entries that depend on a domain it changed (and, for announcements, the readers' views),
///   and only those, before the write's response is sent, so a client never reads its own
///   write stale.
/// - A read that began before a write cannot store what it read after the write dropped the
///   cache: stores compare the generations of the entry's domains with those the read started
///   at; a key made from a reader's view is used only at the generation the view was read at.
/// - When other server instances share the database, the cache is trusted only while the
///   pipeline's ``ChangePipeline/trust`` says so (``ChangeFeed`` keeps it trusted and hands
///   other instances' writes to the pipeline). While it is not, answers are not served early
///   and each route read first has the pipeline compare the database's revisions
///   (``ChangePipeline/catchUp()``), so a write made elsewhere is seen at once.
///
/// One piece, past 300 lines: the entries, the readers' views and the generations they are read
/// at share one lock, and the rules above hold only while every path reads them under it.
final class ResponseCache: Sendable {
    /// A point in the cache's history; entries read at an older generation of a domain they
    /// depend on are not stored.
    struct Generation: Equatable, Sendable {
        fileprivate let value: DomainGenerations
    }

    /// What a caller may see, as a key its answers are kept under, and when that was read.
    struct View: Sendable {
        /// `public` (signed out), `all` (editors and admins), or a readers' view.
        let key: String
        /// What answers kept under the key are built with: for a readers' view, the announcements
        /// of the view itself, never what one reader's grants are at the moment of reading.
        let visibility: Visibility
        /// The generation the key was read at: answers under it are used and kept only then.
        let generation: Generation
    }

    /// Reads the grants of every restricted announcement.
    typealias GrantsLoader = @Sendable () async throws -> ReaderGrants

    /// Readers' views of the named readers, and the grants and audiences they were made from.
    private typealias Views = (byReader: [Int: ReaderView], grants: ReaderGrants)

    /// Reads where an account's person stands in the org chart (for audiences).
    typealias PlacementLoader = @Sendable (_ userID: Int) async throws -> OrgPlacement

    private enum Key: Hashable, Sendable {
        case route(String)
        case early(PublicAnswerKey)

        /// Bytes the key itself holds, counted with its entry.
        var size: Int {
            switch self {
            case .route(let key): key.utf8.count
            case .early(let key): key.size
            }
        }
    }

    /// What is kept: a whole answer, the main part of a web page, a signed-in page with its
    /// personal places open, or an answer as sent.
    private enum Kept: Sendable {
        case response(CachedResponse)
        case page(PageFragment)
        case personal(PersonalPage)
        case early(PublicAnswer)

        var size: Int {
            switch self {
            case .response(let response): response.body.readableBytes + 256
            case .page(let fragment): fragment.size
            case .personal(let page): page.size + 256
            case .early(let answer): answer.body.readableBytes + (answer.page?.size ?? 0) + 256
            }
        }
    }

    private struct Entry: Sendable {
        var value: Kept
        var domains: ChangeDomains
    }

    /// A page offered for ``PublicAnswerHandler`` to keep, with what it was read from and when.
    private struct OfferedPage: Sendable {
        var page: PersonalPage
        var domains: ChangeDomains
        var readAt: Generation
    }

    private struct State {
        var generations = DomainGenerations()
        var entries: BoundedCache<Key, Entry>
        /// Each named reader's view, read at `viewsGeneration`; `nil` until read after a change.
        var views: [Int: ReaderView]?
        var viewsGeneration = DomainGenerations()
        /// What `views` were made from (the audiences, to resolve a reader's placement with).
        var viewGrants: ReaderGrants?
        /// Whether views change with the people directory (some announcement has an audience).
        var viewsFollowPeople = false
        /// While views follow the people directory: each reader's view, resolved from their place
        /// in the org chart when they first ask (dropped with `views`).
        var placedViews: [Int: ReaderView] = [:]
        /// The read of the views under way, and the generation it started at.
        var viewsRead: (task: Task<Views, any Error>, generation: DomainGenerations)?
        /// The next instant at which visibility changes with no write.
        var schedule: VisibilitySchedule
        var publicAnswerHits = 0
        /// Pages the application built for browsers' requests, until ``PublicAnswerHandler``
        /// keeps them with the head of the answer (``offer(_:dependsOn:readAt:for:view:role:)``).
        var offeredPages: [PublicAnswerKey: OfferedPage] = [:]
        var offerOrder = CircularBuffer<PublicAnswerKey>()

        /// The view of `user` (key and what it is built with), when known without asking the
        /// database.
        func view(for user: User?, readsGrants: Bool) -> (key: String, visibility: Visibility)? {
            guard let user else { return ("public", .unrestricted) }
            if user.role >= .editor { return ("all", .everything) }
            guard readsGrants else { return ("u\(user.id)", .reader(userID: user.id)) }
            guard let views, viewsGeneration.agrees(with: generations, on: viewDomains) else { return nil }
            let view: ReaderView
            if viewsFollowPeople {
                guard let placed = placedViews[user.id] else { return nil }
                view = placed
            } else {
                view = views[user.id] ?? .unnamed
            }
            return (view.key, .granted(view.announcements))
        }

        /// Most readers' placed views kept; past it they are all read again.
        static let maxPlacedViews = 200_000

        /// What readers' views are read from.
        var viewDomains: ChangeDomains { viewsFollowPeople ? [.announcements, .people] : .announcements }

        /// Whether an answer read from `domains` may be used or kept at `now` (with a schedule,
        /// one about announcements only before the next change of visibility).
        func isCurrent(_ domains: ChangeDomains, at now: Date, hasSchedule: Bool) -> Bool {
            !hasSchedule || !domains.contains(.announcements) || schedule.isCurrent(at: now, generation: generations[.announcements])
        }
    }

    /// The most entries and bytes kept.
    let limits: CacheLimits
    /// Where changes come from, and whether entries may be used without asking the database.
    let changes: ChangePipeline
    private let loadGrants: GrantsLoader?
    private let loadPlacement: PlacementLoader?
    private let loadSchedule: VisibilitySchedule.Loader?
    /// The clock publication and expiry are read against.
    let now: @Sendable () -> Date
    private let state: NIOLockedValueBox<State>

    /// Counts hits and misses, when metrics are on.
    private let metrics: ServerMetrics?

    /// Makes a cache and adds it to `changes`' listeners.
    ///
    /// - Parameters:
    ///   - limits: most entries and bytes kept (bodies, and keys counted with their entries).
    ///   - grants: reads which announcements name whom; without it (tests of the cache alone),
    ///     each reader has a view of their own.
    ///   - placement: reads where a reader stands in the org chart, for audiences.
    ///   - schedule: reads the next instant at which visibility changes with no write; without
    ///     it (tests of the cache alone), answers do not expire by time.
    ///   - now: the clock those instants are compared with.
    init(
        limits: CacheLimits = .init(entries: 10_000, bytes: 64 << 20), changes: ChangePipeline,
        grants: GrantsLoader? = nil, placement: PlacementLoader? = nil, schedule: VisibilitySchedule.Loader? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, metrics: ServerMetrics? = nil
    ) {
        self.limits = limits
        self.changes = changes
        self.loadGrants = grants
        self.loadPlacement = placement
        self.loadSchedule = schedule
        self.now = now
        self.metrics = metrics
        state = NIOLockedValueBox(State(entries: BoundedCache(limits: limits), schedule: VisibilitySchedule(now: now())))
        changes.add(self)
    }

    /// Whether entries may be used without asking the database first.
    var trust: ChangeTrust { changes.trust }

    // MARK: Views

    /// What `user` may see, as a key shared by every caller who sees the same: signed out, an
    /// editor or admin, or a reader — readers named in the same restricted announcements share
    /// one. Where memory is not trusted on its own, the pipeline compares the database's
    /// revisions first.
    func view(for user: User?) async throws -> View {
        try await changes.catchUp()
        try await readSchedule()
        let readsGrants = loadGrants != nil
        enum Step {
            case known(key: String, visibility: Visibility)
            /// The named readers' views are current; this reader's place in the org chart is not.
            case place(ReaderGrants, named: [Int: ReaderView])
            case read(Task<Views, any Error>)
        }
        let (step, generation) = state.withLockedValue { state -> (Step, Generation) in
            let generation = Generation(value: state.generations)
            if let known = state.view(for: user, readsGrants: readsGrants) { return (.known(key: known.key, visibility: known.visibility), generation) }
            if state.views != nil, state.viewsFollowPeople, state.viewsGeneration.agrees(with: state.generations, on: state.viewDomains),
                let grants = state.viewGrants, let named = state.views
            {
                return (.place(grants, named: named), generation)
            }
            // A reader, and the views are to be read again, once for all who ask at this
            // generation: a change during the read keeps them from being kept, and a key made
            // from them is used at the generation the read started at only.
            if let read = state.viewsRead, read.generation == state.generations { return (.read(read.task), Generation(value: read.generation)) }
            let loadGrants = loadGrants
            let task = Task { () throws -> Views in
                let grants = try await loadGrants?() ?? ReaderGrants(announcementsByReader: [:])
                return (grants.views, grants)
            }
            state.viewsRead = (task, state.generations)
            return (.read(task), generation)
        }
        let grants: ReaderGrants
        let named: [Int: ReaderView]
        switch step {
        case .known(let key, let visibility):
            return View(key: key, visibility: visibility, generation: generation)
        case .place(let current, let currentNamed):
            grants = current
            named = currentNamed
        case .read(let task):
            let views: Views
            do {
                views = try await task.value
            } catch {
                // A failed read is not shared with later requests: the next one reads again.
                state.withLockedValue { state in
                    if state.viewsRead?.generation == generation.value { state.viewsRead = nil }
                }
                throw error
            }
            state.withLockedValue { state in
                if state.viewsRead?.generation == generation.value { state.viewsRead = nil }
                let domains: ChangeDomains = views.grants.hasAudiences ? [.announcements, .people] : .announcements
                guard state.generations.agrees(with: generation.value, on: domains) else { return }
                state.views = views.byReader
                state.viewGrants = views.grants
                state.viewsFollowPeople = views.grants.hasAudiences
                state.placedViews = [:]
                state.viewsGeneration = generation.value
            }
            grants = views.grants
            named = views.byReader
        }
        guard let user, grants.hasAudiences, let loadPlacement else {
            let view = user.flatMap { named[$0.id] } ?? .unnamed
            return View(key: view.key, visibility: .granted(view.announcements), generation: generation)
        }
        // Audiences: the reader's own place in the org chart, one small query; kept until the
        // next change of announcements or people.
        let placement = try await loadPlacement(user.id)
        let byName = named[user.id]?.announcements ?? []
        let view = ReaderView(announcements: byName.union(grants.audienceAnnouncements(for: placement)))
        state.withLockedValue { state in
            guard state.views != nil, state.viewsFollowPeople, state.generations.agrees(with: generation.value, on: [.announcements, .people])
            else { return }
            if state.placedViews.count >= State.maxPlacedViews { state.placedViews = [:] }
            state.placedViews[user.id] = view
        }
        return View(key: view.key, visibility: .granted(view.announcements), generation: generation)
    }

    // MARK: Route entries

    /// The cached answer for `key`, or a fresh one built and cached.
    ///
    /// Where this instance's memory is not trusted on its own (PostgreSQL without a live
    /// change feed), the pipeline compares the database's revisions first (unless `view` was
    /// just read, which did), and a domain that moved drops its entries. An answer built while a
    /// write to one of `domains` happened is not kept.
    ///
    /// - Parameters:
    ///   - key: what tells this answer from every other (with `view`'s key when it has one).
    ///   - domains: the data the answer is read from.
    ///   - view: the view the key was made with: a hit and a store only at its generation.
    ///   - build: builds the answer.
    func answer(
        for key: String, dependsOn domains: ChangeDomains, keyedBy view: View? = nil, build: () async throws -> CachedResponse
    ) async throws -> CachedResponse {
        try await kept(key, dependsOn: domains, keyedBy: view, build: build, wrap: Kept.response) {
            if case .response(let entry) = $0 { entry } else { nil }
        }
    }

    /// The page fragment kept for `key`, or a fresh one built and kept (the rules of
    /// ``answer(for:dependsOn:keyedBy:build:)``).
    func fragment(
        for key: String, dependsOn domains: ChangeDomains, keyedBy view: View? = nil, build: () async throws -> PageFragment
    ) async throws -> PageFragment {
        try await kept(key, dependsOn: domains, keyedBy: view, build: build, wrap: Kept.page) {
            if case .page(let fragment) = $0 { fragment } else { nil }
        }
    }

    /// The signed-in page kept for `key`, or a fresh one built and kept (the rules of
    /// ``answer(for:dependsOn:keyedBy:build:)``).
    func personalPage(
        for key: String, dependsOn domains: ChangeDomains, keyedBy view: View? = nil, build: () async throws -> PersonalPage
    ) async throws -> PersonalPage {
        try await kept(key, dependsOn: domains, keyedBy: view, build: build, wrap: Kept.personal) {
            if case .personal(let page) = $0 { page } else { nil }
        }
    }

    private func kept<Value>(
        _ key: String, dependsOn domains: ChangeDomains, keyedBy view: View?, build: () async throws -> Value,
        wrap: (Value) -> Kept, unwrap: (Kept) -> Value?
    ) async throws -> Value {
        if view == nil {
            try await changes.catchUp()
            try await readSchedule()
        }
        let (found, generation) = lookup(.route(key), at: view?.generation)
        if let found, let value = unwrap(found) { return value }
        let fresh = try await build()
        keep(wrap(fresh), for: .route(key), dependsOn: domains, ifStillAt: generation)
        return fresh
    }

    /// The answer kept for route key `key`, and the generation to store a fresh one under.
    func lookup(_ key: String) -> (entry: CachedResponse?, generation: Generation) {
        let (found, generation) = lookup(.route(key), at: nil)
        guard case .response(let entry)? = found else { return (nil, generation) }
        return (entry, generation)
    }

    /// Stores an answer built from data of `domains` read at `generation`, unless a write to one
    /// of them came since.
    func store(_ entry: CachedResponse, for key: String, dependsOn domains: ChangeDomains, ifStillAt generation: Generation) {
        keep(.response(entry), for: .route(key), dependsOn: domains, ifStillAt: generation)
    }

    /// The entry for `key` and the generation to store a fresh one under; nothing when the
    /// key was made at another generation than the cache's.
    private func lookup(_ key: Key, at keyGeneration: Generation?) -> (Kept?, Generation) {
        let now = now()
        let hasSchedule = loadSchedule != nil
        let found = state.withLockedValue { state -> (Kept?, Generation) in
            if let keyGeneration, !state.generations.agrees(with: keyGeneration.value, on: state.viewDomains) {
                return (nil, keyGeneration)
            }
            let entry = state.entries.value(for: key)
            let isCurrent = entry.map { state.isCurrent($0.domains, at: now, hasSchedule: hasSchedule) } ?? true
            return (isCurrent ? entry?.value : nil, keyGeneration ?? Generation(value: state.generations))
        }
        metrics?.cacheLookup(.route, hit: found.0 != nil)
        if found.0 == nil { passBoundaryIfDue() }
        return found
    }

    private func keep(_ value: Kept, for key: Key, dependsOn domains: ChangeDomains, ifStillAt generation: Generation, readAlso: ChangeDomains = []) {
        let now = now()
        let hasSchedule = loadSchedule != nil
        state.withLockedValue { state in
            guard state.generations.agrees(with: generation.value, on: domains.union(readAlso)),
                state.isCurrent(domains, at: now, hasSchedule: hasSchedule)
            else { return }
            state.entries.set(Entry(value: value, domains: domains), for: key, size: value.size + key.size)
        }
    }

    // MARK: Time

    /// Reads the next instant at which visibility changes, unless known for the current
    /// generation of announcements (one read for all who ask at a generation); announces it at
    /// once when it is already due.
    func readSchedule() async throws {
        guard let loadSchedule else { return }
        let pending = state.withLockedValue { state -> (task: Task<Date?, any Error>, generation: UInt64)? in
            let generation = state.generations[.announcements]
            if state.schedule.generation == generation { return nil }
            if let read = state.schedule.read, read.generation == generation { return read }
            let since = state.schedule.generationStart
            let task = Task { try await loadSchedule(since) }
            state.schedule.read = (task, generation)
            return (task, generation)
        }
        guard let pending else { return }
        let next: Date?
        do {
            next = try await pending.task.value
        } catch {
            state.withLockedValue { state in
                if state.schedule.read?.generation == pending.generation { state.schedule.read = nil }
            }
            throw error
        }
        state.withLockedValue { state in
            if state.schedule.read?.generation == pending.generation { state.schedule.read = nil }
            guard state.generations[.announcements] == pending.generation, state.schedule.generation != pending.generation else { return }
            state.schedule.generation = pending.generation
            state.schedule.nextChange = next
            if let next { state.schedule.timer = wake(at: next) }
        }
        passBoundaryIfDue()
    }

    /// Announces the change of visibility due now, if one is (once per generation): through the
    /// pipeline, so that this cache and everything else that listens drop what it changes.
    func passBoundaryIfDue() {
        guard loadSchedule != nil else { return }
        let now = now()
        let isDue = state.withLockedValue { state in
            guard state.schedule.isDue(at: now, generation: state.generations[.announcements]) else { return false }
            state.schedule.isAnnounced = true
            return true
        }
        if isDue { changes.passed(.announcements) }
    }

    /// A task that announces the change due at `instant` when no request notices it first
    /// (checking the clock again after each sleep: a test's clock may not move with time).
    private func wake(at instant: Date) -> Task<Void, Never> {
        let now = now
        return Task { [weak self] in
            while !Task.isCancelled {
                let remaining = instant.timeIntervalSince(now())
                if remaining <= 0 {
                    self?.passBoundaryIfDue()
                    return
                }
                // A millisecond past the instant, so that the clock reads it as come.
                try? await Task.sleep(for: .milliseconds(Int64(min(remaining, 1) * 1000) + 1))
                if self == nil { return }
            }
        }
    }

    // MARK: Early answers

    /// The early answer for a signed-out request, and the generation to store a fresh one
    /// under; never an answer while the entries are not trusted (the application then checks
    /// the database).
    func publicAnswer(for key: PublicAnswerKey) -> (answer: PublicAnswer?, generation: Generation) {
        let found = earlyAnswer(for: key, user: nil)
        return (found.answer, found.generation)
    }

    /// The early answer for a request by `user` (`nil`: signed out), the key it is kept under
    /// (the request's with the user's view), and the generation to store a fresh one under. No
    /// key when the user's view is not known without the database (the application reads it),
    /// or for a signed-in read of a path outside announcements and people (whose answer may be
    /// the caller's alone), nor for a request seen for the first time while the cache is full
    /// (``BoundedCache/admits(_:)``); never an answer while the entries are not trusted.
    /// With `lookingUp` false (the answer could not be sent now), only the key and generation.
    func earlyAnswer(
        for request: PublicAnswerKey, user: User?, lookingUp: Bool = true
    ) -> (answer: PublicAnswer?, key: PublicAnswerKey?, generation: Generation) {
        let isTrusted = trust.isTrusted
        let readsGrants = loadGrants != nil
        let hasSchedule = loadSchedule != nil
        let now = now()
        let found = state.withLockedValue { state -> (PublicAnswer?, PublicAnswerKey?, Generation) in
            let generation = Generation(value: state.generations)
            // Signed in, only the reads kept per view (announcements, people) are shared: any
            // other path may be personal (`/users/me`). A page is kept only when the
            // application offers it (``offer(_:dependsOn:readAt:for:view:role:)``).
            guard user == nil || request.domains != .all || request.isPage,
                let view = state.view(for: user, readsGrants: readsGrants)?.key
            else {
                return (nil, nil, generation)
            }
            let key =
                if let user { request.forView(request.isPage ? PublicAnswerKey.pageView(view, role: user.role) : view) } else { request }
            guard lookingUp, isTrusted, state.isCurrent(request.domains, at: now, hasSchedule: hasSchedule),
                case .early(let answer)? = state.entries.value(for: .early(key))?.value
            else {
                // Kept as sent, an answer costs about what building it does: while the cache is
                // full, only one asked for before is worth it (a burst of unique URLs is not).
                return (nil, state.entries.admits(.early(key)) ? key : nil, generation)
            }
            state.publicAnswerHits += 1
            return (answer, key, generation)
        }
        if lookingUp, found.1 != nil { metrics?.cacheLookup(.early, hit: found.0 != nil) }
        if found.0 == nil { passBoundaryIfDue() }
        return found
    }

    /// The key of `user`'s view when known without the database (``view(for:)`` reads it).
    func knownViewKey(for user: User) -> String? {
        let readsGrants = loadGrants != nil
        return state.withLockedValue { $0.view(for: user, readsGrants: readsGrants)?.key }
    }

    /// The current generation, for a request whose answer may be stored later.
    var generation: Generation {
        state.withLockedValue { Generation(value: $0.generations) }
    }

    /// Most pages offered and not yet kept. Each is taken when its answer ends; others wait when
    /// the handler is not following the answer (the view was not known on the event loop, the
    /// key was not admitted, or no handler is installed) and go with a change of their data or
    /// when newer offers push them out. Their bytes are mostly those the route entries hold.
    static let maxOfferedPages = 256

    /// Offers the page the application built for a browser's signed-in `request` (from data of
    /// `domains` read at `readAt` or later, for `view` and `role`) to ``PublicAnswerHandler``,
    /// which keeps it with the head of the answer (``storePersonalAnswer(head:for:ifStillAt:)``)
    /// for the next request of the same view and role, unless a write to that data came since
    /// `readAt`. Nothing is offered for a request that has no page key.
    func offer(
        _ page: PersonalPage, dependsOn domains: ChangeDomains, readAt: Generation, for request: HTTPRequest, view: String, role: UserRole
    ) {
        guard let requestKey = PublicAnswerKey(request), requestKey.isPage else { return }
        let key = requestKey.forView(PublicAnswerKey.pageView(view, role: role))
        state.withLockedValue { state in
            let offered = OfferedPage(page: page, domains: domains, readAt: readAt)
            if state.offeredPages.updateValue(offered, forKey: key) == nil {
                state.offerOrder.append(key)
            }
            while state.offerOrder.count > Self.maxOfferedPages {
                state.offeredPages[state.offerOrder.removeFirst()] = nil
            }
        }
    }

    /// Keeps the page offered for `key` with the head the application answered it with, unless
    /// a write to the page's data came since it was read, or a write to that data or a change of
    /// accounts since `generation` (when the request came).
    func storePersonalAnswer(head: HTTPResponse, for key: PublicAnswerKey, ifStillAt generation: Generation) {
        let now = now()
        let hasSchedule = loadSchedule != nil
        state.withLockedValue { state in
            guard let offered = state.offeredPages.removeValue(forKey: key) else { return }
            if let index = state.offerOrder.firstIndex(of: key) { state.offerOrder.remove(at: index) }
            guard let answer = PublicAnswer(head: head, page: offered.page),
                state.generations.agrees(with: generation.value, on: offered.domains.union([.accounts, .people])),
                state.generations.agrees(with: offered.readAt.value, on: offered.domains),
                state.isCurrent(offered.domains, at: now, hasSchedule: hasSchedule)
            else { return }
            let kept = Kept.early(answer)
            state.entries.set(Entry(value: kept, domains: offered.domains), for: .early(key), size: kept.size + key.size)
        }
    }

    /// Stores an early answer built from data of `domains` read at `generation`, unless a write
    /// to one of them came since. A signed-in caller's answer is also not stored after a change
    /// of accounts (their role may have changed between the view and the answer) or of people
    /// (a move in the org chart may have changed their view: the answer was built for the new
    /// one, the key made with the old).
    func storePublicAnswer(_ answer: PublicAnswer, for key: PublicAnswerKey, dependsOn domains: ChangeDomains, ifStillAt generation: Generation) {
        keep(.early(answer), for: .early(key), dependsOn: domains, ifStillAt: generation, readAlso: key.view == nil ? [] : [.accounts, .people])
    }

    // MARK: Diagnostics

    /// How many entries depend on each set of domains (for tests and diagnostics).
    var entriesByDependency: [ChangeDomains: Int] {
        state.withLockedValue { state in
            var counts: [ChangeDomains: Int] = [:]
            for entry in state.entries.allValues { counts[entry.domains, default: 0] += 1 }
            return counts
        }
    }

    /// Entries, bytes and evictions now, with the limits (for `/metrics`).
    var report: CacheReport {
        state.withLockedValue { state in
            CacheReport(
                name: "answers", entries: state.entries.count, bytes: state.entries.bytes, evictions: state.entries.evictions,
                limits: limits)
        }
    }

    /// The number of entries held, of both kinds (for tests and diagnostics).
    var count: Int {
        state.withLockedValue { $0.entries.count }
    }

    /// How many offered pages wait to be kept (for tests and diagnostics).
    var offeredPageCount: Int {
        state.withLockedValue { $0.offeredPages.count }
    }

    /// How many requests were answered from an early answer (for tests and diagnostics).
    var publicAnswerHits: Int {
        state.withLockedValue { $0.publicAnswerHits }
    }
}

extension ResponseCache: ChangeListener {
    /// Drops the entries that depend on a domain the change changed (and the readers' views
    /// with announcements).
    func apply(_ change: Change) {
        let now = now()
        state.withLockedValue { state in
            state.generations.advance(change.domains)
            if change.domains.contains(.announcements) || (change.domains.contains(.people) && state.viewsFollowPeople) {
                state.views = nil
                state.viewsRead = nil
                state.viewGrants = nil
                state.placedViews = [:]
            }
            if change.domains.contains(.announcements) { state.schedule.restart(at: now) }
            state.entries.removeAll { !$0.domains.isDisjoint(with: change.domains) }
            let stale = state.offeredPages.filter { !$0.value.domains.isDisjoint(with: change.domains) }.keys
            if !stale.isEmpty {
                for key in stale { state.offeredPages[key] = nil }
                state.offerOrder = CircularBuffer(state.offerOrder.filter { state.offeredPages[$0] != nil })
            }
        }
    }
}
