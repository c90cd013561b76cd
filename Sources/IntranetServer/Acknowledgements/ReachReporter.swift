import FluentKit
import Foundation
import IntranetAPI
import SQLKit
import Synchronization

/// The editors' numbers of one announcement (``ReachReport``) and the named list behind them,
/// read from the database at the moment of asking, so they stay exact as people join, leave or
/// move.
///
/// The audience is the accounts that may read the announcement as readers: every account for an
/// announcement to everyone; otherwise the accounts it names and those linked to a person of one
/// of its departments (compared ignoring case, as reading does) or of one of its teams (the
/// head and everyone under them). Departments come from the people directory; an account linked
/// to no person counts under ``DepartmentReach/noDepartment``.
struct ReachReporter: Sendable {
    let database: any Database
    /// Where the opens are counted (`nil`: reported as 0).
    let opens: OpenCounter?
    /// The pipeline whose generations say when counts read before are still right (`nil`:
    /// every report is counted afresh).
    var changes: ChangePipeline?
    var now: @Sendable () -> Date = { Date() }
    private let counted = CountedReach()

    /// Names in the named list are sent in pages of this many rows (constant memory).
    static let pageSize = 2_000

    /// The report of `announcement` (whose current round it counts).
    ///
    /// The counts by department are kept until a change of announcements, people, accounts or
    /// acknowledgements (on PostgreSQL, while the change feed vouches for this instance's
    /// memory), so asking again is cheap; the opens and what depends on the clock are read each
    /// time.
    func report(_ announcement: StoredAnnouncement) async throws -> ReachReport {
        let acknowledgement = announcement.acknowledgement
        let (departments, former) = try await counts(announcement)
        let total = departments.reduce(0) { $0 + $1.audience }
        let acknowledged = departments.reduce(0) { $0 + $1.acknowledged }
        let isPastDue = acknowledgement.required && (acknowledgement.dueAt.map { $0 <= now() } ?? false)
        return ReachReport(
            audience: total, acknowledged: acknowledged, pending: total - acknowledged, overdue: isPastDue ? total - acknowledged : 0,
            opened: try await opens?.opened(announcement.id) ?? 0, formerEmployees: acknowledgement.round > 0 ? former : 0,
            round: acknowledgement.round, required: acknowledgement.required, dueAt: acknowledgement.dueAt, departments: departments)
    }

    /// The audience by department and the former employees' count of `announcement`'s current
    /// round: kept, or read.
    private func counts(_ announcement: StoredAnnouncement) async throws -> (departments: [DepartmentReach], former: Int) {
        let domains: ChangeDomains = [.announcements, .people, .accounts, .acknowledgements]
        let generations = changes.flatMap { $0.trust.isTrusted ? $0.generations : nil }
        let key = CountedReach.Key(id: announcement.id, revision: announcement.revision, round: announcement.acknowledgement.round)
        if let generations, let kept = counted.value(for: key, at: generations, on: domains) { return kept }
        let fresh = try await readCounts(announcement)
        if let generations { counted.keep(fresh, for: key, at: generations) }
        return fresh
    }

    private func readCounts(_ announcement: StoredAnnouncement) async throws -> (departments: [DepartmentReach], former: Int) {
        let sql = try sql()
        let audience = try await audienceQuery(announcement, on: sql)
        let acknowledgement = announcement.acknowledgement
        let rows = try await sql.raw("""
            \(audience)
            SELECT p.department AS department, COUNT(*) AS audience, COUNT(k.user_id) AS acknowledged
            FROM audience a
            LEFT JOIN \(ident: PersonModel.schema) p ON p.user_id = a.user_id
            LEFT JOIN \(ident: AcknowledgementModel.schema) k
                ON k.announcement_id = \(bind: announcement.id) AND k.user_id = a.user_id AND k.round = \(bind: acknowledgement.round)
            GROUP BY p.department
            """).all()
        var byDepartment: [String: (audience: Int, acknowledged: Int)] = [:]
        for row in rows {
            let name = try row.decodeNil(column: "department") ? "" : try row.decode(column: "department", as: String.self)
            let key = name.isEmpty ? DepartmentReach.noDepartment : name
            let counts = (try row.decode(column: "audience", as: Int.self), try row.decode(column: "acknowledged", as: Int.self))
            byDepartment[key, default: (0, 0)].audience += counts.0
            byDepartment[key, default: (0, 0)].acknowledged += counts.1
        }
        let departments = byDepartment.map { name, counts in
            DepartmentReach(name: name, audience: counts.audience, acknowledged: counts.acknowledged, pending: counts.audience - counts.acknowledged)
        }.sorted { ($0.audience, $1.name) > ($1.audience, $0.name) }
        let former = try await sql.select().column("ack_former").from(AnnouncementModel.schema)
            .where("id", .equal, announcement.id).first()?.decode(column: "ack_former", as: Int.self) ?? 0
        return (departments, former)
    }

    /// One person of the audience in the named list.
    struct Entry: Sendable, Equatable {
        var userID: Int
        var name: String
        var email: String
        var department: String
        var acknowledgedAt: Date?
    }

    /// The named list of the audience, by department, then name, then account: the page after
    /// `after` (`nil`: the first), at most ``pageSize`` entries; an empty page ends it.
    func entries(of announcement: StoredAnnouncement, after: Entry?) async throws -> [Entry] {
        let sql = try sql()
        let audience = try await audienceQuery(announcement, on: sql)
        let department: SQLQueryString = "COALESCE(p.department, '')"
        let name: SQLQueryString = "COALESCE(p.name, u.display_name)"
        var query: SQLQueryString = """
            \(audience)
            SELECT a.user_id AS user_id, \(name) AS name, COALESCE(p.email, '') AS email, \(department) AS department,
                k.acknowledged_at AS acknowledged_at
            FROM audience a
            JOIN \(ident: UserModel.schema) u ON u.id = a.user_id
            LEFT JOIN \(ident: PersonModel.schema) p ON p.user_id = a.user_id
            LEFT JOIN \(ident: AcknowledgementModel.schema) k
                ON k.announcement_id = \(bind: announcement.id) AND k.user_id = a.user_id AND k.round = \(bind: announcement.acknowledgement.round)
            """
        if let after {
            query += """
                 WHERE \(department) > \(bind: after.department)
                    OR (\(department) = \(bind: after.department) AND \(name) > \(bind: after.name))
                    OR (\(department) = \(bind: after.department) AND \(name) = \(bind: after.name) AND a.user_id > \(bind: after.userID))
                """
        }
        query += " ORDER BY 4, 2, 1 LIMIT \(bind: Self.pageSize)"
        return try await sql.raw(query).all().map { row in
            let department = try row.decode(column: "department", as: String.self)
            return Entry(
                userID: try row.decode(column: "user_id", as: Int.self), name: try row.decode(column: "name", as: String.self),
                email: try row.decode(column: "email", as: String.self), department: department,
                acknowledgedAt: try row.decodeNil(column: "acknowledged_at")
                    ? nil : FluentAnnouncementRepository.storedMillisecond(try row.decode(column: "acknowledged_at", as: Date.self)))
        }
    }

    /// `WITH RECURSIVE team(…) AS (…), audience(user_id) AS (…)`: the announcement's audience, one
    /// row per account.
    private func audienceQuery(_ announcement: StoredAnnouncement, on sql: any SQLDatabase) async throws -> SQLQueryString {
        let people = PersonModel.schema
        guard announcement.isRestricted else {
            return "WITH audience(user_id) AS (SELECT id FROM \(ident: UserModel.schema))"
        }
        let audience = announcement.audience ?? AnnouncementAudience()
        let teamHeads: SQLQueryString = audience.teams.isEmpty ? "1 = 0" : "id IN (\(binds: audience.teams))"
        let departments = try await matchingDepartments(audience.departments, on: sql)
        let inDepartment: SQLQueryString = departments.isEmpty ? "1 = 0" : "department IN (\(binds: departments))"
        return """
            WITH RECURSIVE team(id, depth) AS (
                SELECT id, 0 FROM \(ident: people) WHERE \(teamHeads)
                UNION
                SELECT p.id, team.depth + 1 FROM \(ident: people) p JOIN team ON p.manager_id = team.id WHERE team.depth < 1000
            ),
            audience(user_id) AS (
                SELECT user_id FROM \(ident: ReaderGrantModel.schema) WHERE announcement_id = \(bind: announcement.id)
                UNION
                SELECT user_id FROM \(ident: people)
                WHERE user_id IS NOT NULL AND (\(inDepartment) OR id IN (SELECT id FROM team))
            )
            """
    }

    /// The department names of the directory that equal one of `wanted` ignoring case, as
    /// reading compares them (``ReaderGrants/audienceAnnouncements(for:)``).
    private func matchingDepartments(_ wanted: [String], on sql: any SQLDatabase) async throws -> [String] {
        guard !wanted.isEmpty else { return [] }
        let lowered = Set(wanted.map { $0.lowercased() })
        let rows = try await sql.select().distinct().column("department").from(PersonModel.schema).all()
        return try rows.map { try $0.decode(column: "department", as: String.self) }.filter { lowered.contains($0.lowercased()) }
    }

    private func sql() throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        return sql
    }
}

/// Reach counts read before, each with the generations it was read at; a few dozen at most.
private final class CountedReach: Sendable {
    struct Key: Hashable, Sendable {
        var id: Int
        var revision: Int
        var round: Int
    }

    private struct Kept: Sendable {
        var counts: (departments: [DepartmentReach], former: Int)
        var generations: DomainGenerations
    }

    private static let limit = 64
    private let kept = Mutex([Key: Kept]())

    func value(for key: Key, at generations: DomainGenerations, on domains: ChangeDomains) -> (departments: [DepartmentReach], former: Int)? {
        kept.withLock { kept in
            guard let entry = kept[key], entry.generations.agrees(with: generations, on: domains) else { return nil }
            return entry.counts
        }
    }

    func keep(_ counts: (departments: [DepartmentReach], former: Int), for key: Key, at generations: DomainGenerations) {
        kept.withLock { kept in
            if kept.count >= Self.limit { kept.removeAll() }
            kept[key] = Kept(counts: counts, generations: generations)
        }
    }
}
