import FluentKit
import Foundation
import IntranetAPI
import SQLKit

/// Who may read restricted announcements: named readers, and audiences resolved through the
/// people directory (a department's people, a team's head and everyone under them) and the
/// account each person is linked to.
extension FluentAnnouncementRepository {
    /// Which restricted announcements each reader may read, by name or through an audience: the
    /// response cache's readers' views. Reads the readers, the audiences, and only the people
    /// the audiences reach (a department by its index, a team by walking down from its head).
    static func readerGrants(on database: any Database) async throws -> ReaderGrants {
        var byReader: [Int: Set<Int>] = [:]
        for grant in try await ReaderGrantModel.query(on: database).all() {
            byReader[grant.userID, default: []].insert(grant.announcementID)
        }
        let audiences = try await AudienceModel.query(on: database).all()
        guard !audiences.isEmpty, let sql = database as? any SQLDatabase else {
            return ReaderGrants(announcementsByReader: byReader.mapValues(Array.init), hasAudiences: !audiences.isEmpty)
        }
        var byDepartment: [String: [Int]] = [:]
        var byTeam: [Int: [Int]] = [:]
        for entry in audiences {
            if let department = entry.department { byDepartment[department.lowercased(), default: []].append(entry.announcementID) }
            if let team = entry.teamID { byTeam[team, default: []].append(entry.announcementID) }
        }
        if !byDepartment.isEmpty {
            let names = try await departmentNames(matching: Set(byDepartment.keys), on: sql)
            if !names.isEmpty {
                let rows = try await sql.raw("""
                    SELECT user_id, department FROM \(ident: PersonModel.schema)
                    WHERE department IN (\(binds: names)) AND user_id IS NOT NULL
                    """).all()
                for row in rows {
                    let user = try row.decode(column: "user_id", as: Int.self)
                    let department = try row.decode(column: "department", as: String.self).lowercased()
                    byReader[user, default: []].formUnion(byDepartment[department] ?? [])
                }
            }
        }
        if !byTeam.isEmpty {
            let rows = try await sql.raw("""
                WITH RECURSIVE team(head, id) AS (
                    SELECT id, id FROM \(ident: PersonModel.schema) WHERE id IN (\(binds: Array(byTeam.keys)))
                    UNION
                    SELECT team.head, p.id FROM \(ident: PersonModel.schema) p JOIN team ON p.manager_id = team.id
                )
                SELECT team.head AS head, p.user_id AS user_id FROM team JOIN \(ident: PersonModel.schema) p ON p.id = team.id
                WHERE p.user_id IS NOT NULL
                """).all()
            for row in rows {
                let user = try row.decode(column: "user_id", as: Int.self)
                byReader[user, default: []].formUnion(byTeam[try row.decode(column: "head", as: Int.self)] ?? [])
            }
        }
        return ReaderGrants(announcementsByReader: byReader.mapValues(Array.init), hasAudiences: true)
    }

    /// The restricted announcements `userID` may read: those naming them, and those addressed
    /// to their department or to a team they are in (they or a manager above them is its head).
    static func restrictedAnnouncements(visibleTo userID: Int, on database: any Database) async throws -> Set<Int> {
        var ids = Set(try await ReaderGrantModel.query(on: database).filter(\.$userID == userID).all(\.$announcementID))
        let audiences = try await AudienceModel.query(on: database).all()
        guard !audiences.isEmpty, let sql = database as? any SQLDatabase else { return ids }
        let chain = try await sql.raw("""
            WITH RECURSIVE chain(id, manager_id, department, depth) AS (
                SELECT id, manager_id, department, 0 FROM \(ident: PersonModel.schema) WHERE user_id = \(bind: userID)
                UNION
                SELECT p.id, p.manager_id, p.department, chain.depth + 1 FROM \(ident: PersonModel.schema) p
                JOIN chain ON p.id = chain.manager_id WHERE chain.depth < 1000
            )
            SELECT id, department, depth FROM chain
            """).all()
        var teams = Set<Int>()
        var department: String?
        for row in chain {
            teams.insert(try row.decode(column: "id", as: Int.self))
            if try row.decode(column: "depth", as: Int.self) == 0 {
                department = try row.decode(column: "department", as: String.self).lowercased()
            }
        }
        for entry in audiences {
            if let team = entry.teamID, teams.contains(team) { ids.insert(entry.announcementID) }
            if let name = entry.department, name.lowercased() == department { ids.insert(entry.announcementID) }
        }
        return ids
    }

    /// `visibility` with a reader resolved to the restricted announcements they may read.
    static func resolved(_ visibility: Visibility, on database: any Database) async throws -> Visibility {
        guard case .reader(let userID) = visibility else { return visibility }
        return .granted(try await restrictedAnnouncements(visibleTo: userID, on: database))
    }

    /// The audiences of these announcements (those with none are absent).
    static func audience(of ids: [Int], on database: any Database) async throws -> [Int: AnnouncementAudience] {
        let entries = try await AudienceModel.query(on: database).filter(\.$announcementID ~~ ids).sort(\.$id).all()
        var audiences: [Int: AnnouncementAudience] = [:]
        for entry in entries {
            var audience = audiences[entry.announcementID] ?? AnnouncementAudience()
            if let department = entry.department { audience.departments.append(department) }
            if let team = entry.teamID { audience.teams.append(team) }
            audiences[entry.announcementID] = audience
        }
        return audiences
    }

    /// Replaces the audience of an announcement. An empty audience is kept as one row naming
    /// nothing, so that it still restricts the announcement (to editors) when read back.
    ///
    /// - Throws: ``APIError`` 422 when a team names a person who does not exist.
    static func replaceAudience(of id: Int, with audience: AnnouncementAudience?, on database: any Database) async throws {
        try await AudienceModel.query(on: database).filter(\.$announcementID == id).delete()
        guard let audience else { return }
        if !audience.teams.isEmpty {
            let existing = Set(try await PersonModel.query(on: database).filter(\.$id ~~ audience.teams).all(\.$id).compactMap { $0 })
            let unknown = audience.teams.filter { !existing.contains($0) }
            guard unknown.isEmpty else {
                let list = unknown.prefix(10).map(String.init).joined(separator: ", ")
                throw APIError.validation([.init(field: "audience.teams", message: "names people who do not exist: \(list)")])
            }
        }
        var entries = audience.departments.map { AudienceModel(announcementID: id, department: $0) }
        entries += audience.teams.map { AudienceModel(announcementID: id, teamID: $0) }
        if entries.isEmpty { entries = [AudienceModel(announcementID: id)] }
        try await entries.create(on: database)
    }

    /// The next instant after `now` at which what readers see changes with no write: a
    /// publication, an expiry, or the end of a pin; `nil` when none is ahead.
    static func nextVisibilityChange(after now: Date, on database: any Database) async throws -> Date? {
        let published = AnnouncementStatus.published.rawValue
        let publication = try await AnnouncementModel.query(on: database)
            .filter(\.$status == published).filter(\.$publishAt > now).min(\.$publishAt)
        let expiry = try await AnnouncementModel.query(on: database)
            .filter(\.$status == published).filter(\.$expiresAt > now).min(\.$expiresAt)
        let pinEnd = try await AnnouncementModel.query(on: database)
            .filter(\.$pinned == true).filter(\.$pinnedUntil > now).min(\.$pinnedUntil)
        return [publication, expiry, pinEnd].compactMap { $0 ?? nil }.min()
    }

    /// The directory's department names that equal one of `names` ignoring ASCII case (the
    /// audience names a department as the editor typed it; the index holds it as written).
    private static func departmentNames(matching names: Set<String>, on sql: any SQLDatabase) async throws -> [String] {
        let rows = try await sql.raw("SELECT DISTINCT department FROM \(ident: PersonModel.schema)").all()
        return try rows.map { try $0.decode(column: "department", as: String.self) }.filter { names.contains($0.lowercased()) }
    }
}
