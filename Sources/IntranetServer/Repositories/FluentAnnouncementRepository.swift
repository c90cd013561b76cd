import FluentKit
import Foundation
import SQLKit

/// ``AnnouncementRepository`` on FluentKit: SQLite or PostgreSQL. Its writes go through the
/// ``ChangePipeline`` as changes of ``ChangeDomain/announcements``.
struct FluentAnnouncementRepository: AnnouncementRepository {
    let database: any Database
    /// Where writes commit, and what learns of them.
    let changes: ChangePipeline
    /// The clock, injectable so tests can tell timestamps apart.
    var now: @Sendable () -> Date = { Date() }

    /// - Parameters:
    ///   - changes: the server's pipeline; without one (tools, tests), writes still count in
    ///     the database's revisions, but nothing in this process hears of them.
    init(database: any Database, changes: ChangePipeline? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.changes = changes ?? ChangePipeline(database: database)
        self.now = now
    }

    func list(_ request: ListRequest, visibility: Visibility) async throws -> (items: [StoredAnnouncement], total: Int) {
        let visibleQuery = try await Self.visibleQuery(visibility, on: database)
        let visible: @Sendable () -> QueryBuilder<AnnouncementModel>
        if let search = request.search, !search.isEmpty {
            visible = { visibleQuery().filter(.sql(Self.contains(search))) }
        } else {
            visible = visibleQuery
        }
        let total = try await visible().count()
        let direction: DatabaseQuery.Sort.Direction = request.isDescending ? .descending : .ascending
        var query = visible()
        switch request.sort {
        case .id: query = query.sort(\.$id, direction)
        case .title: query = query.sort(\.$title, direction).sort(\.$id, direction)
        case .createdAt: query = query.sort(\.$createdAt, direction).sort(\.$id, direction)
        case .updatedAt: query = query.sort(\.$updatedAt, direction).sort(\.$id, direction)
        }
        let models = try await query.range(request.offset..<(request.offset + request.limit)).all()
        return (try await Self.stored(models, on: database), total)
    }

    func find(id: Int, visibility: Visibility) async throws -> StoredAnnouncement? {
        guard let model = try await AnnouncementModel.find(id, on: database) else { return nil }
        let announcement = try await Self.stored([model], on: database)[0]
        return visibility.allows(announcement) ? announcement : nil
    }

    func create(_ content: AnnouncementContent) async throws -> StoredAnnouncement {
        let model = AnnouncementModel(title: content.title, body: content.body, createdAt: Self.millisecondPrecision(now()))
        model.isRestricted = content.readers != nil
        return try await changes.write(.announcements, on: database) { database, changed in
            try await model.create(on: database)
            try await Self.replaceReaders(of: model.requireID(), with: content.readers, on: database)
            changed.subjects = [.announcement(id: try model.requireID(), .created)]
            return try StoredAnnouncement(model, readers: content.readers)
        }
    }

    func update(
        id: Int,
        precondition: WritePrecondition,
        change: @escaping @Sendable (StoredAnnouncement) throws -> AnnouncementContent
    ) async throws -> StoredAnnouncement {
        let timestamp = Self.millisecondPrecision(now())
        return try await changes.write(.announcements, on: database) { database, changed in
            let model = try await Self.lockedModel(id: id, precondition: precondition, on: database)
            let current = try await Self.stored([model], on: database)[0]
            let content = try change(current)
            model.title = content.title
            model.body = content.body
            model.isRestricted = content.readers != nil
            model.revision += 1
            model.updatedAt = max(timestamp, model.updatedAt)
            try await model.update(on: database)
            if content.readers != current.readers {
                try await Self.replaceReaders(of: id, with: content.readers, on: database)
            }
            changed.subjects = [.announcement(id: id, .changed)]
            return try StoredAnnouncement(model, readers: content.readers)
        }
    }

    func delete(id: Int, precondition: WritePrecondition) async throws {
        try await changes.write(.announcements, on: database) { database, changed in
            let model = try await Self.lockedModel(id: id, precondition: precondition, on: database)
            try await ReaderGrantModel.query(on: database).filter(\.$announcementID == id).delete()
            try await model.delete(on: database)
            changed.subjects = [.announcement(id: id, .deleted)]
        }
    }

    func ping() async throws {
        _ = try await RevisionModel.query(on: database).count()
    }

    /// A factory of queries over the announcements `visibility` allows.
    /// `LOWER(title) LIKE '%text%' OR LOWER(body) LIKE '%text%'`, the text bound as a
    /// parameter with its wildcards escaped.
    private static func contains(_ text: String) -> any SQLExpression {
        func like(_ column: String) -> any SQLExpression {
            SearchPattern.like(SQLFunction("LOWER", args: SQLColumn(column)), containing: text.lowercased())
        }
        return SQLGroupExpression(SQLBinaryExpression(like("title"), .or, like("body")))
    }

    private static func visibleQuery(
        _ visibility: Visibility, on database: any Database
    ) async throws -> @Sendable () -> QueryBuilder<AnnouncementModel> {
        switch visibility {
        case .everything:
            return { AnnouncementModel.query(on: database) }
        case .unrestricted:
            return { AnnouncementModel.query(on: database).filter(\.$isRestricted == false) }
        case .reader, .granted:
            let granted: [Int]
            if case .granted(let ids) = visibility {
                granted = ids.sorted()
            } else if case .reader(let userID) = visibility {
                granted = try await ReaderGrantModel.query(on: database).filter(\.$userID == userID).all(\.$announcementID)
            } else {
                granted = []
            }
            guard !granted.isEmpty else {
                return { AnnouncementModel.query(on: database).filter(\.$isRestricted == false) }
            }
            return {
                AnnouncementModel.query(on: database).group(.or) { group in
                    group.filter(\.$isRestricted == false).filter(\.$id ~~ granted)
                }
            }
        }
    }

    /// Which restricted announcements name whom: the response cache's readers' views.
    static func readerGrants(on database: any Database) async throws -> ReaderGrants {
        var byReader: [Int: [Int]] = [:]
        for grant in try await ReaderGrantModel.query(on: database).all() {
            byReader[grant.userID, default: []].append(grant.announcementID)
        }
        return ReaderGrants(announcementsByReader: byReader)
    }

    /// Turns models into announcements, loading the readers of the restricted ones.
    private static func stored(_ models: [AnnouncementModel], on database: any Database) async throws -> [StoredAnnouncement] {
        let restricted = try models.filter(\.isRestricted).map { try $0.requireID() }
        var readers: [Int: [Int]] = [:]
        if !restricted.isEmpty {
            let grants = try await ReaderGrantModel.query(on: database)
                .filter(\.$announcementID ~~ restricted).sort(\.$userID).all()
            for grant in grants {
                readers[grant.announcementID, default: []].append(grant.userID)
            }
        }
        return try models.map { model in
            try StoredAnnouncement(model, readers: model.isRestricted ? readers[try model.requireID(), default: []] : nil)
        }
    }

    /// Replaces the reader list of an announcement.
    ///
    /// - Throws: ``APIError`` 422 when a listed user does not exist.
    private static func replaceReaders(of id: Int, with readers: [Int]?, on database: any Database) async throws {
        try await ReaderGrantModel.query(on: database).filter(\.$announcementID == id).delete()
        guard let readers, !readers.isEmpty else { return }
        let existing = Set(try await UserModel.query(on: database).filter(\.$id ~~ readers).all(\.$id).compactMap { $0 })
        let unknown = readers.filter { !existing.contains($0) }
        guard unknown.isEmpty else {
            let list = unknown.prefix(10).map(String.init).joined(separator: ", ")
            throw APIError.validation([.init(field: "readers", message: "names users that do not exist: \(list)")])
        }
        try await readers.map { ReaderGrantModel(announcementID: id, userID: $0) }.create(on: database)
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

    /// Timestamps are kept to the millisecond, the precision the API shows, so what a client
    /// reads back equals what was stored.
    static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}

extension StoredAnnouncement {
    init(_ model: AnnouncementModel, readers: [Int]?) throws {
        self.init(
            id: try model.requireID(),
            title: model.title,
            body: model.body,
            revision: model.revision,
            createdAt: model.createdAt,
            updatedAt: model.updatedAt,
            readers: readers
        )
    }
}
