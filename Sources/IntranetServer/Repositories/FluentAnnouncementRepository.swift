import FluentKit
import Foundation
import IntranetAPI
import SQLKit

/// ``AnnouncementRepository`` on FluentKit: SQLite or PostgreSQL. Its writes go through the
/// ``ChangePipeline`` as changes of ``ChangeDomain/announcements``.
struct FluentAnnouncementRepository: AnnouncementRepository {
    let database: any Database
    /// Where writes commit, and what learns of them.
    let changes: ChangePipeline
    /// The clock, injectable so tests can tell timestamps apart.
    var now: @Sendable () -> Date = { Date() }
    /// The search index in memory, searched first while it is current.
    let searchMemory: AnnouncementSearchMemory?

    /// - Parameters:
    ///   - changes: the server's pipeline; without one (tools, tests), writes still count in
    ///     the database's revisions, but nothing in this process hears of them.
    ///   - searchMemory: the server's search index in memory; without one, searches read the
    ///     database's index only.
    init(
        database: any Database, changes: ChangePipeline? = nil, now: @escaping @Sendable () -> Date = { Date() },
        searchMemory: AnnouncementSearchMemory? = nil
    ) {
        self.database = database
        self.changes = changes ?? ChangePipeline(database: database)
        self.now = now
        self.searchMemory = searchMemory
    }

    func list(_ request: ListRequest, visibility: Visibility) async throws -> (items: [StoredAnnouncement], total: Int) {
        let now = now()
        let visibleQuery = try await Self.visibleQuery(visibility, listing: request.listing, at: now, on: database)
        let visible: @Sendable () -> QueryBuilder<AnnouncementModel>
        if let search = request.search, !search.isEmpty {
            visible = { visibleQuery().filter(.sql(Self.contains(search))) }
        } else {
            visible = visibleQuery
        }
        let total = try await visible().count()
        let direction: DatabaseQuery.Sort.Direction = request.isDescending ? .descending : .ascending
        var query = visible()
        if request.pinnedFirst {
            // Pinned now first, in the order they were pinned; then the requested sort.
            let pinnedNow: SQLQueryString =
                "\(ident: "pinned") = \(bind: true) AND (\(ident: "pinned_until") IS NULL OR \(ident: "pinned_until") > \(bind: now))"
            query = query.sort(.sql(SQLQueryString("CASE WHEN \(pinnedNow) THEN 0 ELSE 1 END")))
                .sort(.sql(SQLQueryString("CASE WHEN \(pinnedNow) THEN \(ident: "pinned_at") END")))
        }
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
        var announcement = try await Self.stored([model], on: database)[0]
        let resolved = try await Self.resolved(visibility, on: database)
        guard resolved.allows(announcement, at: now()) else { return nil }
        announcement.attachments = try await AttachmentStore.descriptions(of: [id], on: database)[id] ?? []
        return announcement
    }

    func create(_ content: AnnouncementContent) async throws -> StoredAnnouncement {
        let timestamp = Self.millisecondPrecision(now())
        let model = AnnouncementModel(title: content.title, body: content.body, createdAt: timestamp)
        Self.apply(content, to: model, pinnedBefore: false, at: timestamp)
        return try await changes.write(.announcements, on: database) { database, changed in
            try await model.create(on: database)
            let id = try model.requireID()
            try await Self.replaceReaders(of: id, with: content.readers, on: database)
            try await Self.replaceAudience(of: id, with: content.audience, on: database)
            try await AnnouncementSearchIndex.index(id: id, title: content.title, body: content.body, attachmentNames: [], on: database)
            changed.subjects = [.announcement(id: id, .created)]
            return try StoredAnnouncement(model, readers: content.readers, audience: content.audience)
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
            try AnnouncementInput.checkWindow(content.publishing)
            model.title = content.title
            model.body = content.body
            // A pin that ended by itself counts as none: pinning again puts it last.
            Self.apply(content, to: model, pinnedBefore: current.isPinned(at: timestamp), at: timestamp)
            model.revision += 1
            model.updatedAt = max(timestamp, model.updatedAt)
            try await model.update(on: database)
            if content.readers != current.readers {
                try await Self.replaceReaders(of: id, with: content.readers, on: database)
            }
            if content.audience != current.audience {
                try await Self.replaceAudience(of: id, with: content.audience, on: database)
            }
            if content.title != current.title || content.body != current.body {
                try await AnnouncementSearchIndex.index(id: id, title: content.title, body: content.body, on: database)
            }
            var updated = try StoredAnnouncement(model, readers: content.readers, audience: content.audience)
            updated.attachments = try await AttachmentStore.descriptions(of: [id], on: database)[id] ?? []
            Self.describe(update: id, from: current, to: updated, at: timestamp, in: &changed)
            return updated
        }
    }

    func delete(id: Int, precondition: WritePrecondition) async throws {
        try await changes.write(.announcements, on: database) { database, changed in
            let model = try await Self.lockedModel(id: id, precondition: precondition, on: database)
            changed.formerReaders[id] = FormerReaders(try await Self.stored([model], on: database)[0], at: now())
            try await ReaderGrantModel.query(on: database).filter(\.$announcementID == id).delete()
            try await AudienceModel.query(on: database).filter(\.$announcementID == id).delete()
            try await AnnouncementSearchIndex.remove(id: id, on: database)
            // Acknowledgements are kept until the announcement goes, and go with it.
            if try await AcknowledgementModel.query(on: database).filter(\.$announcementID == id).count() > 0 {
                try await AcknowledgementModel.query(on: database).filter(\.$announcementID == id).delete()
                changed.domains.insert(.acknowledgements)
            }
            try await OpenCounter.remove(announcementID: id, on: database)
            // Its files stay for the clean-up's grace period (StoredFiles).
            try await AttachmentStore.removeAll(of: id, on: database)
            try await model.delete(on: database)
            changed.subjects = [.announcement(id: id, .deleted)]
        }
    }

    /// Names what an update did for live streams: `published` when readers see it from now on
    /// for the first time, and who could read it before when that changed.
    private static func describe(update id: Int, from current: StoredAnnouncement, to updated: StoredAnnouncement, at now: Date, in change: inout Change) {
        let wentLive = !current.isLive(at: now) && updated.isLive(at: now)
        change.subjects = [.announcement(id: id, wentLive ? .published : .changed)]
        let before = FormerReaders(current, at: now)
        if before != FormerReaders(updated, at: now) { change.formerReaders[id] = before }
    }

    /// Sets the stored fields `content` decides beyond title and body; a pin made now (not
    /// pinned before) is timed, so that pinned announcements keep the order they were pinned in.
    private static func apply(_ content: AnnouncementContent, to model: AnnouncementModel, pinnedBefore: Bool, at timestamp: Date) {
        let publishing = content.publishing
        model.isRestricted = content.readers != nil || content.audience != nil
        model.hasReaders = content.readers != nil
        model.status = publishing.status.rawValue
        model.publishAt = publishing.publishAt
        model.expiresAt = publishing.expiresAt
        model.pinned = publishing.pinned
        model.pinnedAt = publishing.pinned ? (pinnedBefore ? model.pinnedAt ?? timestamp : timestamp) : nil
        model.pinnedUntil = publishing.pinnedUntil
        model.important = publishing.important
        model.bodyMarkdown = content.markdown
        let acknowledgement = content.acknowledgement
        // A new round starts with no former employees' acknowledgements.
        if acknowledgement.round != model.ackRound { model.ackFormer = 0 }
        model.ackRequired = acknowledgement.required
        model.ackDueAt = acknowledgement.dueAt
        model.ackRound = acknowledgement.round
    }

    func ping() async throws {
        _ = try await RevisionModel.query(on: database).count()
    }

    /// `LOWER(title) LIKE '%text%' OR LOWER(body) LIKE '%text%'`, the text bound as a
    /// parameter with its wildcards escaped.
    private static func contains(_ text: String) -> any SQLExpression {
        func like(_ column: String) -> any SQLExpression {
            SearchPattern.like(SQLFunction("LOWER", args: SQLColumn(column)), containing: text.lowercased())
        }
        return SQLGroupExpression(SQLBinaryExpression(like("title"), .or, like("body")))
    }

    /// A factory of queries over the announcements of `listing` that `visibility` allows at
    /// `now`. Only editors and admins (``Visibility/everything``) list anything but what is live.
    static func visibleQuery(
        _ visibility: Visibility, listing: ListRequest.Listing, at now: Date, on database: any Database
    ) async throws -> @Sendable () -> QueryBuilder<AnnouncementModel> {
        let granted: [Int]?
        switch try await resolved(visibility, on: database) {
        case .everything: granted = nil
        case .granted(let ids): granted = ids.sorted()
        case .unrestricted, .reader: granted = []
        }
        return {
            var query = AnnouncementModel.query(on: database)
            switch listing {
            case .live:
                query = query.filter(\.$status == AnnouncementStatus.published.rawValue)
                    .group(.or) { $0.filter(\.$publishAt == nil).filter(\.$publishAt <= now) }
                    .group(.or) { $0.filter(\.$expiresAt == nil).filter(\.$expiresAt > now) }
            case .draft:
                query = query.filter(\.$status == AnnouncementStatus.draft.rawValue)
            case .scheduled:
                query = query.filter(\.$status == AnnouncementStatus.published.rawValue).filter(\.$publishAt > now)
            case .expired:
                query = query.filter(\.$status == AnnouncementStatus.published.rawValue).filter(\.$expiresAt <= now)
            }
            guard let granted else { return query }
            if granted.isEmpty { return query.filter(\.$isRestricted == false) }
            return query.group(.or) { group in
                group.filter(\.$isRestricted == false).filter(Self.idIn(granted, on: database))
            }
        }
    }

    /// `announcements.id` among `ids`, as one parameter: a reader of thousands of restricted
    /// announcements (an audience the size of a department) is not thousands of placeholders
    /// for Fluent to build and SQLite or PostgreSQL to parse in every query (measured: most of
    /// a 15 ms search with 5,000). A JSON array read by `json_each` on SQLite, an array on
    /// PostgreSQL; a list elsewhere.
    static func idIn(_ ids: [Int], on database: any Database) -> DatabaseQuery.Filter {
        let column = SQLColumn(SQLIdentifier("id"), table: SQLIdentifier(AnnouncementModel.schema))
        switch (database as? any SQLDatabase)?.dialect.name {
        case "sqlite":
            let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
            return .sql(SQLBinaryExpression(column, .in, SQLQueryString("(SELECT value FROM json_each(\(bind: list)))")))
        case "postgresql":
            return .sql(SQLQueryString("\(column) = ANY(\(bind: ids))"))
        default:
            return .value(.path(["id"], schema: AnnouncementModel.schema), .subset(inverse: false), .array(ids.map { .bind($0) }))
        }
    }

    /// Turns models into announcements, loading the readers and audiences of the restricted ones.
    static func stored(_ models: [AnnouncementModel], on database: any Database) async throws -> [StoredAnnouncement] {
        let restricted = try models.filter(\.isRestricted).map { try $0.requireID() }
        var readers: [Int: [Int]] = [:]
        var audiences: [Int: AnnouncementAudience] = [:]
        if !restricted.isEmpty {
            let grants = try await ReaderGrantModel.query(on: database)
                .filter(\.$announcementID ~~ restricted).sort(\.$userID).all()
            for grant in grants {
                readers[grant.announcementID, default: []].append(grant.userID)
            }
            audiences = try await audience(of: restricted, on: database)
        }
        return try models.map { model in
            let id = try model.requireID()
            return try StoredAnnouncement(
                model, readers: model.hasReaders ? readers[id, default: []] : nil, audience: model.isRestricted ? audiences[id] : nil)
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

    /// A time read back from a column written with ``millisecondPrecision(_:)``, to the nearest
    /// millisecond: the very value written (PostgreSQL's microseconds come back a hair off in
    /// binary, which Spearal's dates would carry).
    static func storedMillisecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

extension StoredAnnouncement {
    init(_ model: AnnouncementModel, readers: [Int]?, audience: AnnouncementAudience?) throws {
        self.init(
            id: try model.requireID(),
            title: model.title,
            body: model.body,
            revision: model.revision,
            createdAt: model.createdAt,
            updatedAt: model.updatedAt,
            readers: readers,
            publishing: AnnouncementV3.Publishing(
                status: AnnouncementStatus(rawValue: model.status) ?? .draft, publishAt: model.publishAt, expiresAt: model.expiresAt,
                pinned: model.pinned, pinnedUntil: model.pinnedUntil, important: model.important),
            pinnedAt: model.pinnedAt,
            audience: audience,
            markdown: model.bodyMarkdown,
            acknowledgement: AcknowledgementRule(required: model.ackRequired, dueAt: model.ackDueAt, round: model.ackRound)
        )
    }
}
