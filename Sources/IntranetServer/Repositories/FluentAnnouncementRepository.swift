import FluentKit
import Foundation
import SQLKit

/// ``AnnouncementRepository`` on FluentKit: SQLite or PostgreSQL.
struct FluentAnnouncementRepository: AnnouncementRepository {
    let database: any Database
    /// The clock, injectable so tests can tell timestamps apart.
    var now: @Sendable () -> Date = { Date() }

    func list(_ request: ListRequest) async throws -> (items: [StoredAnnouncement], total: Int) {
        let total = try await AnnouncementModel.query(on: database).count()
        let direction: DatabaseQuery.Sort.Direction = request.isDescending ? .descending : .ascending
        var query = AnnouncementModel.query(on: database)
        switch request.sort {
        case .id: query = query.sort(\.$id, direction)
        case .title: query = query.sort(\.$title, direction).sort(\.$id, direction)
        case .createdAt: query = query.sort(\.$createdAt, direction).sort(\.$id, direction)
        case .updatedAt: query = query.sort(\.$updatedAt, direction).sort(\.$id, direction)
        }
        let models = try await query.range(request.offset..<(request.offset + request.limit)).all()
        return (try models.map(StoredAnnouncement.init), total)
    }

    func find(id: Int) async throws -> StoredAnnouncement? {
        try await AnnouncementModel.find(id, on: database).map(StoredAnnouncement.init)
    }

    func create(_ content: AnnouncementContent) async throws -> StoredAnnouncement {
        let model = AnnouncementModel(title: content.title, body: content.body, createdAt: Self.millisecondPrecision(now()))
        try await database.transaction { database in
            try await model.create(on: database)
            try await Self.bumpRevision(on: database)
        }
        return try StoredAnnouncement(model)
    }

    func update(
        id: Int,
        precondition: WritePrecondition,
        change: @escaping @Sendable (StoredAnnouncement) throws -> AnnouncementContent
    ) async throws -> StoredAnnouncement {
        let timestamp = Self.millisecondPrecision(now())
        return try await database.transaction { database in
            let model = try await Self.lockedModel(id: id, precondition: precondition, on: database)
            let content = try change(try StoredAnnouncement(model))
            model.title = content.title
            model.body = content.body
            model.revision += 1
            model.updatedAt = max(timestamp, model.updatedAt)
            try await model.update(on: database)
            try await Self.bumpRevision(on: database)
            return try StoredAnnouncement(model)
        }
    }

    func delete(id: Int, precondition: WritePrecondition) async throws {
        try await database.transaction { database in
            let model = try await Self.lockedModel(id: id, precondition: precondition, on: database)
            try await model.delete(on: database)
            try await Self.bumpRevision(on: database)
        }
    }

    func currentRevision() async throws -> Int64 {
        let row = try await RevisionModel.find(RevisionModel.announcementsKey, on: database)
        return row?.value ?? 0
    }

    func ping() async throws {
        _ = try await RevisionModel.query(on: database).count()
    }

    /// Reads the row inside the write's transaction (locking it on PostgreSQL) and checks
    /// `If-Match` against it.
    private static func lockedModel(
        id: Int, precondition: WritePrecondition, on database: any Database
    ) async throws -> AnnouncementModel {
        if let sql = database as? any SQLDatabase {
            // Serialises concurrent writers to one row on PostgreSQL; SQLite's dialect adds no
            // clause, and its single connection already serialises writes.
            try await sql.select().column("id").from(AnnouncementModel.schema)
                .where("id", .equal, id).for(.update).run()
        }
        guard let model = try await AnnouncementModel.find(id, on: database) else {
            throw APIError.notFound()
        }
        guard precondition.isSatisfied(by: model.revision) else {
            throw APIError.preconditionFailed()
        }
        return model
    }

    private static func bumpRevision(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw("UPDATE change_revisions SET value = value + 1 WHERE id = 1").run()
    }

    /// Timestamps are kept to the millisecond, the precision the API shows, so what a client
    /// reads back equals what was stored.
    static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}

extension StoredAnnouncement {
    init(_ model: AnnouncementModel) throws {
        self.init(
            id: try model.requireID(),
            title: model.title,
            body: model.body,
            revision: model.revision,
            createdAt: model.createdAt,
            updatedAt: model.updatedAt
        )
    }
}
