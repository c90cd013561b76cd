import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository

/// Acknowledgements: "I have read and understood" for readers, and the reach of a post for
/// editors.
///
/// ```swift
/// switch try await intranet.acknowledgements.acknowledge(12) {
/// case .confirmed(let receipt): print("confirmed at", receipt.acknowledgedAt)
/// case .queued(let since): print("offline: will be sent (queued at \(since))")
/// }
/// let waiting = try await intranet.acknowledgements.pending(page: 1, pageSize: 20)
/// let reach = try await intranet.acknowledgements.reach(12)   // editors
/// ```
///
/// **Offline.** With a response store (``IntranetClientConfiguration/responseStore``), an
/// acknowledgement made while the server cannot be reached is kept in the store's outbox
/// (under the signed-in user, surviving the app's end) and ``acknowledge(_:round:)`` answers
/// ``Outcome/queued(since:)``; ``sendQueued()`` sends what is queued once the server answers
/// (``AnnouncementFeed`` does on every refresh). Each is removed only when the server answered
/// it, and sending is one at a time in this process: a retry after a lost answer sends the
/// same idempotent `PUT`, which the server answers with the first acknowledgement's time.
/// Signing out drops that user's queue only. An answer that says "not now" (a server error,
/// 408, 429) keeps it queued too; a refusal (the post is gone, hidden, no longer asks, or asks
/// a new round since the user read it) drops it and is reported.
public struct AcknowledgementsRepository: Sendable {
    /// What ``acknowledge(_:round:)`` did.
    public enum Outcome: Sendable, Equatable {
        /// The server recorded it (now, or before: the receipt names the first time).
        case confirmed(AcknowledgementReceipt)
        /// The server could not be reached: it is queued (since then) and will be sent.
        case queued(since: Date)
    }

    /// An acknowledgement waiting in the outbox.
    public struct Queued: Sendable, Equatable {
        /// The announcement acknowledged.
        public var announcementID: Int
        /// When the reader acknowledged it (offline).
        public var since: Date
    }

    /// The client sending the requests.
    public let client: RESTClient
    /// The announcements, for the pending list.
    public let announcements: AnnouncementsRepository
    private let sending: SendingGate

    /// Creates the repository.
    public init(client: RESTClient, announcements: AnnouncementsRepository) {
        self.client = client
        self.announcements = announcements
        self.sending = SendingGate()
    }

    /// Acknowledges the current round of announcement `id` for the signed-in user.
    ///
    /// - Returns: ``Outcome/confirmed(_:)`` with the server's receipt, or, with a response store
    ///   and no server to reach, ``Outcome/queued(since:)``.
    /// - Throws: a `RepositoryError`: `notFound` when the user may not read it, `conflict`
    ///   when it asks for no acknowledgement, `unauthorized` signed out; unreachable without
    ///   a store.
    ///
    /// - Parameters:
    ///   - id: the announcement's id.
    ///   - round: the round the user read (the detail's `acknowledgement.round`): when the editor
    ///     asked again meanwhile, the server refuses it (`conflict`) rather than count it for a
    ///     text the user did not see. `nil` confirms whatever round is current.
    public func acknowledge(_ id: Int, round: Int? = nil) async throws -> Outcome {
        let path = Self.path(of: id, round: round)
        do {
            return .confirmed(try await send(path))
        } catch let error as RepositoryError where Self.isWorthRetrying(error) {
            guard let caching = client.caching,
                let queued = caching.store.enqueue(method: "PUT", path: path, scope: caching.scope, partition: await caching.partition())
            else { throw error }
            return .queued(since: queued.queuedAt)
        }
    }

    /// Whether an acknowledgement that met `error` may still succeed later: no answer, or one
    /// that says "not now" (a server error, 408, 429).
    static func isWorthRetrying(_ error: RepositoryError) -> Bool {
        if error.isUnreachable { return true }
        switch error {
        case .server, .rateLimited: return true
        case .unexpectedStatus(let details): return details.status.code == 408
        default: return false
        }
    }

    /// The acknowledgements queued for the signed-in user, oldest first.
    public func queued() async -> [Queued] {
        guard let caching = client.caching else { return [] }
        return caching.store.queued(scope: caching.scope, partition: await caching.partition()).compactMap { entry in
            Self.announcementID(inPath: entry.path).map { Queued(announcementID: $0, since: entry.queuedAt) }
        }
    }

    /// Sends the signed-in user's queued acknowledgements, oldest first, stopping at the first
    /// that still cannot reach the server (it stays queued, with those after it).
    ///
    /// - Returns: the answer for each one sent: the receipt, or the error the server gave
    ///   (such one is removed: the post was deleted, hidden from the user, or no longer asks).
    ///   A session that expired (401) keeps them queued for the next sign-in of that user.
    @discardableResult
    public func sendQueued() async -> [Int: Result<AcknowledgementReceipt, RepositoryError>] {
        guard let caching = client.caching else { return [:] }
        return await sending.run {
            var results: [Int: Result<AcknowledgementReceipt, RepositoryError>] = [:]
            let partition = await caching.partition()
            for entry in caching.store.queued(scope: caching.scope, partition: partition) {
                guard let id = Self.announcementID(inPath: entry.path) else {
                    caching.store.dequeue(entry.id)
                    continue
                }
                // Another user signed in meanwhile: their session must not send this one's.
                guard await caching.partition() == partition else { break }
                do {
                    results[id] = .success(try await send(entry.path))
                } catch let error as RepositoryError {
                    if Self.isWorthRetrying(error) { break }
                    if case .unauthorized = error { break }
                    results[id] = .failure(error)
                } catch {
                    break
                }
                caching.store.dequeue(entry.id)
            }
            return results
        }
    }

    /// One page of the announcements waiting for the signed-in user's acknowledgement, earliest
    /// due date first (`GET /announcements?pending=true`).
    ///
    /// - Throws: a `RepositoryError`: `unauthorized` signed out.
    public func pending(page: Int = 1, pageSize: Int = 20) async throws -> Page<AnnouncementSummary> {
        try await announcements.read(page: page, pageSize: pageSize, extraQuery: [URLQueryItem(name: "pending", value: "true")])
    }

    /// The reach of announcement `id` (editors and admins): audience, acknowledged, pending,
    /// overdue, opened, and the same per department.
    ///
    /// - Throws: a `RepositoryError`: `forbidden` for a reader, `notFound`.
    public func reach(_ id: Int) async throws -> ReachReport {
        try await client.value(RESTRequest(.get, path: "/announcements/\(id)/reach"), as: ReachReport.self)
    }

    /// The named list of announcement `id`'s audience as CSV (RFC 4180, a header line, then
    /// name, email, department and acknowledged-at per person), for editors and admins.
    public func reachCSV(_ id: Int) async throws -> Data {
        let request = RESTRequest(.get, path: "/announcements/\(id)/reach").setting(.accept, to: "text/csv")
        return try await client.send(request).body
    }

    /// Sends the `PUT` of `path` (its round, when it names one, as the query).
    private func send(_ path: String) async throws -> AcknowledgementReceipt {
        let parts = path.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? [URLQueryItem(name: "round", value: String(parts[1].dropFirst("round=".count)))] : []
        return try await client.value(RESTRequest(.put, path: String(parts[0]), query: query), as: AcknowledgementReceipt.self)
    }

    /// The acknowledgement's path as the outbox keeps it: with `?round=n` when a round is named.
    static func path(of id: Int, round: Int? = nil) -> String {
        "/announcements/\(id)/acknowledgement" + (round.map { "?round=\($0)" } ?? "")
    }

    static func announcementID(inPath path: String) -> Int? {
        let parts = path.prefix { $0 != "?" }.split(separator: "/")
        guard parts.count == 3, parts[0] == "announcements", parts[2] == "acknowledgement" else { return nil }
        return Int(parts[1])
    }
}

/// Runs one send of the outbox at a time, so that two callers never send the same entry: each
/// run starts when the one before it ended.
private actor SendingGate {
    private var tail: Task<Void, Never>?

    func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let previous = tail
        let task = Task {
            await previous?.value
            return await work()
        }
        tail = Task { _ = await task.value }
        return await task.value
    }
}
