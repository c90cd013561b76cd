import FluentKit
import Foundation
import IntranetAPI
import SQLKit

/// Readers' acknowledgements on FluentKit (SQLite or PostgreSQL): giving one, reading one's
/// own, and the posts still waiting for a reader. Writes go through the ``ChangePipeline`` as
/// changes of ``ChangeDomain/acknowledgements``. The editors' numbers are ``ReachReporter``'s.
struct AcknowledgementStore: Sendable {
    let database: any Database
    let changes: ChangePipeline
    let now: @Sendable () -> Date
    private let batches: AcknowledgementBatches<Job, Outcome>

    init(database: any Database, changes: ChangePipeline, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.changes = changes
        self.now = now
        batches = AcknowledgementBatches { jobs in try await Self.write(jobs, on: database, changes: changes, now: now) }
    }

    /// One acknowledgement asked for, by a caller whose view is resolved.
    struct Job: Sendable {
        var announcementID: Int
        var userID: Int
        var visibility: Visibility
        var expectedRound: Int?
        var audience: Visibility?
    }

    /// What ``acknowledge(_:by:visibility:)`` found.
    enum Outcome: Sendable, Equatable {
        /// Given now, or before: the round and when it was first given.
        case given(AcknowledgementReceipt)
        /// The announcement asks for no acknowledgement.
        case notAsked
        /// There is no such announcement, or `visibility` does not show it now.
        case hidden
        /// The announcement asks for another round than the one the reader confirmed (it was
        /// changed and asked again since they read it): the current round.
        case otherRound(Int)
        /// An editor or admin may read it but is not in its audience: only the audience
        /// acknowledges (what reach counts).
        case notAddressed
    }

    /// Acknowledges the current round of `announcement` for `userID`, once: a repeat (or a
    /// concurrent twin) answers with the first one's time and writes nothing. Only what
    /// `visibility` shows now (published, within its window, and unrestricted or granted) may
    /// be acknowledged; `visibility` is the caller's view, already resolved
    /// (``ResponseCache/view(for:)``), so that this costs a share of one transaction.
    ///
    /// - Parameters:
    ///   - round: the round the reader read and confirms, when they said; another current
    ///     round is refused (``Outcome/otherRound(_:)``), so that a confirmation sent late (from
    ///     an offline queue, or a page opened before a new round) never counts for a text the
    ///     reader did not see.
    ///   - audience: for an editor or admin (who reads everything), what they may read as a
    ///     reader: a restricted post outside it is ``Outcome/notAddressed``.
    ///
    /// Acknowledgements arriving together share one transaction (``AcknowledgementBatches``):
    /// each is answered when that transaction committed, and the pipeline hears of all of them
    /// as one change.
    func acknowledge(
        _ announcementID: Int, by userID: Int, visibility: Visibility, round expected: Int? = nil, audience: Visibility? = nil
    ) async throws -> Outcome {
        try await acknowledge(
            Job(announcementID: announcementID, userID: userID, visibility: visibility, expectedRound: expected, audience: audience))
    }

    /// Runs `job` in the next batch (as ``acknowledge(_:by:visibility:round:audience:)``).
    func acknowledge(_ job: Job) async throws -> Outcome {
        try await batches.run(job)
    }

    /// Writes `jobs`, gathered by the caller, in one transaction, and answers with what became
    /// of each, in order (the batches of ``EarlyAcknowledgements``).
    func write(_ jobs: [Job]) async throws -> [Outcome] {
        try await Self.write(jobs, on: database, changes: changes, now: now)
    }

    private static func write(
        _ jobs: [Job], on database: any Database, changes: ChangePipeline, now: @Sendable () -> Date
    ) async throws -> [Outcome] {
        let now = now()
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now)
        return try await changes.write(.acknowledgements, on: database) { database, changed in
            guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
            changed.domains = []
            let outcomes = try await Self.acknowledge(jobs, at: now, timestamp: timestamp, on: sql)
            for (job, outcome) in zip(jobs, outcomes) {
                if case .given(let receipt) = outcome, receipt.acknowledgedAt == timestamp {
                    changed.domains = .acknowledgements
                    changed.subjects.append(.acknowledgement(announcementID: job.announcementID, userID: job.userID))
                }
            }
            return outcomes
        }
    }

    /// What decides whether an announcement may be acknowledged, and in which round.
    private struct Asked {
        var isRestricted: Bool
        var isLive: Bool
        var isRequired: Bool
        var round: Int

        init(_ row: any SQLRow, at now: Date) throws {
            func date(_ column: String) throws -> Date? { try row.decodeNil(column: column) ? nil : try row.decode(column: column, as: Date.self) }
            isRestricted = try row.decode(column: "is_restricted", as: Bool.self)
            isLive = try row.decode(column: "status", as: String.self) == AnnouncementStatus.published.rawValue
                && (try date("publish_at")).map { $0 <= now } ?? true && (try date("expires_at")).map { now < $0 } ?? true
            isRequired = try row.decode(column: "ack_required", as: Bool.self)
            round = try row.decode(column: "ack_round", as: Int.self)
        }
    }

    /// A batch, inside its transaction, in two statements however many it holds, and one more
    /// for each repeat of an acknowledgement given before: the announcements it names read at
    /// once, the new acknowledgements inserted at once (a repeat, or a twin in the same batch,
    /// inserts nothing), and for each repeat when it was first given.
    private static func acknowledge(
        _ jobs: [Job], at now: Date, timestamp: Date, on sql: any SQLDatabase
    ) async throws -> [Outcome] {
        var asked: [Int: Asked] = [:]
        let rows = try await sql.select()
            .columns("id", "is_restricted", "status", "publish_at", "expires_at", "ack_required", "ack_round")
            .from(AnnouncementModel.schema).where("id", .in, Array(Set(jobs.map(\.announcementID)))).all()
        for row in rows { asked[try row.decode(column: "id", as: Int.self)] = try Asked(row, at: now) }
        var outcomes: [Outcome?] = jobs.map { job in Self.refusal(of: job, asked[job.announcementID]) }
        let writes = jobs.indices.filter { outcomes[$0] == nil }
        guard !writes.isEmpty else { return outcomes.compactMap { $0 } }
        struct Given: Hashable { var announcementID: Int, userID: Int, round: Int }
        func given(_ index: Int) -> Given {
            Given(announcementID: jobs[index].announcementID, userID: jobs[index].userID, round: asked[jobs[index].announcementID]?.round ?? 0)
        }
        // In key order, so that two instances' batches take their rows' locks in the same order.
        let values = writes.sorted { (jobs[$0].announcementID, jobs[$0].userID) < (jobs[$1].announcementID, jobs[$1].userID) }.map { index -> SQLQueryString in
            let key = given(index)
            return "(\(bind: key.announcementID), \(bind: key.userID), \(bind: key.round), \(bind: timestamp))"
        }
        let inserted = Set(try await sql.raw("""
            INSERT INTO \(ident: AcknowledgementModel.schema) (announcement_id, user_id, round, acknowledged_at)
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (announcement_id, user_id, round) DO NOTHING RETURNING announcement_id, user_id, round
            """).all().map { row in
                Given(announcementID: try row.decode(column: "announcement_id", as: Int.self), userID: try row.decode(column: "user_id", as: Int.self),
                      round: try row.decode(column: "round", as: Int.self))
            })
        for index in writes {
            let key = given(index)
            // New in this batch (a twin of one in it too): given now.
            var at = timestamp
            if !inserted.contains(key) {
                at = try await Self.given(key.announcementID, round: key.round, by: key.userID, on: sql) ?? timestamp
            }
            outcomes[index] = .given(AcknowledgementReceipt(round: key.round, acknowledgedAt: at))
        }
        return outcomes.compactMap { $0 }
    }

    /// Why `job` may not be acknowledged (`nil` when it may: it is then written in the round
    /// `asked` gives), `asked` being its announcement as read in the batch's transaction.
    private static func refusal(of job: Job, _ asked: Asked?) -> Outcome? {
        guard let asked else { return .hidden }
        let isShown: Bool
        switch job.visibility {
        case .everything: isShown = true
        case .granted(let ids): isShown = !asked.isRestricted || ids.contains(job.announcementID)
        case .unrestricted, .reader: isShown = !asked.isRestricted
        }
        guard isShown, asked.isLive else { return .hidden }
        if asked.isRestricted, case .granted(let ids)? = job.audience, !ids.contains(job.announcementID) { return .notAddressed }
        guard asked.isRequired else { return .notAsked }
        if let expected = job.expectedRound, expected != asked.round { return .otherRound(asked.round) }
        return nil
    }

    private static func given(_ announcementID: Int, round: Int, by userID: Int, on sql: any SQLDatabase) async throws -> Date? {
        // Read back as written, so a repeat names the very time the first answer did.
        try await (sql.select().column("acknowledged_at").from(AcknowledgementModel.schema)
            .where("announcement_id", .equal, announcementID).where("user_id", .equal, userID).where("round", .equal, round)
            .first()?.decode(column: "acknowledged_at", as: Date.self)).map(FluentAnnouncementRepository.storedMillisecond)
    }

    /// When `userID` acknowledged `round` of `announcementID`; `nil` when they have not.
    func acknowledgedAt(_ announcementID: Int, round: Int, by userID: Int) async throws -> Date? {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        return try await Self.given(announcementID, round: round, by: userID, on: sql)
    }

    /// One page of the live announcements that ask `userID` for an acknowledgement they have not
    /// given in the current round, among those addressed to them as a reader (everyone's, those
    /// naming them, those of their department or team: an editor's too, by the same rule), earliest
    /// due date first (those without one last, newest first among equals), and how many in all.
    func pending(for userID: Int, offset: Int, limit: Int) async throws -> (items: [StoredAnnouncement], total: Int) {
        let visible = try await FluentAnnouncementRepository.visibleQuery(.reader(userID: userID), listing: .live, at: now(), on: database)
        let table = AnnouncementModel.schema
        let waiting: SQLQueryString = """
            NOT EXISTS (SELECT 1 FROM \(ident: AcknowledgementModel.schema) k WHERE k.announcement_id = \(ident: table).id
            AND k.user_id = \(bind: userID) AND k.round = \(ident: table).ack_round)
            """
        let pending = { visible().filter(\.$ackRequired == true).filter(.sql(waiting)) }
        let total = try await pending().count()
        let models = try await pending()
            .sort(.sql(SQLQueryString("CASE WHEN \(ident: "ack_due_at") IS NULL THEN 1 ELSE 0 END")))
            .sort(\.$ackDueAt, .ascending).sort(\.$createdAt, .descending).sort(\.$id, .descending)
            .range(offset..<(offset + limit)).all()
        return (try await FluentAnnouncementRepository.stored(models, on: database), total)
    }

    /// Counts, then removes, the acknowledgements of account `userID` (in its deletion's
    /// transaction): each announcement whose current round it acknowledged counts one more
    /// former employee.
    ///
    /// - Returns: whether it had any.
    static func forget(userID: Int, on database: any Database) async throws -> Bool {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        guard try await AcknowledgementModel.query(on: database).filter(\.$userID == userID).count() > 0 else { return false }
        let table = AnnouncementModel.schema
        try await sql.raw("""
            UPDATE \(ident: table) SET ack_former = ack_former + 1
            WHERE id IN (SELECT k.announcement_id FROM \(ident: AcknowledgementModel.schema) k
                WHERE k.user_id = \(bind: userID) AND k.round = \(ident: table).ack_round)
            """).run()
        try await AcknowledgementModel.query(on: database).filter(\.$userID == userID).delete()
        return true
    }
}
