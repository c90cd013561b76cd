import FluentKit
import Foundation
import IntranetAPI
import SQLKit

/// Who may read restricted announcements: named readers, and audiences resolved through the
/// people directory (a department's people, a team's head and everyone under them) and the
/// account each person is linked to.
extension FluentAnnouncementRepository {
    /// Which restricted announcements name whom, and every audience entry: the response
    /// cache's readers' views (audiences are resolved per reader, ``placement(of:on:)``).
    static func readerGrants(on database: any Database) async throws -> ReaderGrants {
        var byReader: [Int: [Int]] = [:]
        for grant in try await ReaderGrantModel.query(on: database).all() {
            byReader[grant.userID, default: []].append(grant.announcementID)
        }
        let audiences = try await AudienceModel.query(on: database).all().map {
            AudienceEntry(announcementID: $0.announcementID, department: $0.department, teamID: $0.teamID)
        }
        return ReaderGrants(announcementsByReader: byReader, audiences: audiences)
    }

    /// Where `userID`'s person stands in the org chart: their department, and their id with
    /// every manager's above them (one query walking up the chain, bounded against a cycle made
    /// by hand). Empty for an account linked to no person.
    static func placement(of userID: Int, on database: any Database) async throws -> OrgPlacement {
        guard let sql = database as? any SQLDatabase else { return OrgPlacement() }
        let rows = try await sql.raw("""
            WITH RECURSIVE chain(id, manager_id, department, depth) AS (
                SELECT id, manager_id, department, 0 FROM \(ident: PersonModel.schema) WHERE user_id = \(bind: userID)
                UNION
                SELECT p.id, p.manager_id, p.department, chain.depth + 1 FROM \(ident: PersonModel.schema) p
                JOIN chain ON p.id = chain.manager_id WHERE chain.depth < 1000
            )
            SELECT id, department, depth FROM chain
            """).all()
        var placement = OrgPlacement()
        for row in rows {
            placement.chain.insert(try row.decode(column: "id", as: Int.self))
            if try row.decode(column: "depth", as: Int.self) == 0 {
                placement.department = try row.decode(column: "department", as: String.self)
            }
        }
        return placement
    }

    /// The restricted announcements `userID` may read: those naming them, and those addressed
    /// to their department or to a team they are in (they or a manager above them is its head).
    static func restrictedAnnouncements(visibleTo userID: Int, on database: any Database) async throws -> Set<Int> {
        var ids = Set(try await ReaderGrantModel.query(on: database).filter(\.$userID == userID).all(\.$announcementID))
        let audiences = try await AudienceModel.query(on: database).all().map {
            AudienceEntry(announcementID: $0.announcementID, department: $0.department, teamID: $0.teamID)
        }
        guard !audiences.isEmpty else { return ids }
        let grants = ReaderGrants(announcementsByReader: [:], audiences: audiences)
        ids.formUnion(grants.audienceAnnouncements(for: try await placement(of: userID, on: database)))
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
}
