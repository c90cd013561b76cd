import FluentKit
import Foundation
import IntranetAPI
import FluentSQL
import SQLKit

/// ``PersonRepository`` on FluentKit: SQLite or PostgreSQL.
///
/// Writes that could change who manages whom run one at a time (on PostgreSQL under a
/// transaction-scoped advisory lock; SQLite's single writer already does this), so two
/// concurrent changes can never make a loop that each alone would not.
struct FluentPersonRepository: PersonRepository {
    let database: any Database
    /// The clock, injectable so tests can tell timestamps apart.
    var now: @Sendable () -> Date = { Date() }
    /// The search in memory, when the server keeps one; searches go to the database while it
    /// has no current snapshot (and always without one).
    var searchIndex: PeopleSearchIndex?

    /// The advisory lock key people's writes take on PostgreSQL.
    private static let writeLock = 7_301_100

    func list(_ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int) {
        let search = request.search.map(PersonRules.searchKey).flatMap { $0.isEmpty ? nil : $0 }
        // No field holds a control character (only `search_key`'s separators are), and a NUL
        // would cut the text short in SQLite and be refused by PostgreSQL: such a text matches
        // no one. (The API refuses it with a 400 first; this keeps every caller safe.)
        if let search, search.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return ([], 0)
        }
        if let search, let searchIndex, let snapshot = searchIndex.current(),
            let found = try await Self.page(of: snapshot, search, request, index: searchIndex, on: database)
        {
            return found
        }
        if let search, search.count >= 3, let sql = database as? any SQLDatabase {
            switch sql.dialect.name {
            case "sqlite": return try await Self.trigramSearch(search, request, on: sql)
            case "postgresql": return try await Self.postgresSearch(search, request, on: sql)
            default: break
            }
        }
        let matching: @Sendable () -> QueryBuilder<PersonModel> = {
            let query = PersonModel.query(on: database)
            guard let search else { return query }
            return query.filter(.sql(SearchPattern.like("search_key", containing: search)))
        }
        let total = try await matching().count()
        let direction: DatabaseQuery.Sort.Direction = request.isDescending ? .descending : .ascending
        var query = matching()
        switch request.sort {
        case .id: query = query.sort(\.$id, direction)
        case .name: query = query.sort(\.$name, direction).sort(\.$id, direction)
        case .email: query = query.sort(\.$emailKey, direction).sort(\.$id, direction)
        case .jobTitle: query = query.sort(\.$jobTitle, direction).sort(\.$id, direction)
        case .department: query = query.sort(\.$department, direction).sort(\.$id, direction)
        }
        let models = try await query.range(request.offset..<(request.offset + request.limit)).all()
        return (try models.map(StoredPerson.init), total)
    }

    func find(id: Int) async throws -> StoredPerson? {
        try await PersonModel.find(id, on: database).map(StoredPerson.init)
    }

    func people(ids: [Int]) async throws -> [StoredPerson] {
        guard !ids.isEmpty else { return [] }
        return try await Self.people(where: "id", in: ids, on: database)
    }

    func reports(of ids: [Int]) async throws -> [Int: [StoredPerson]] {
        guard !ids.isEmpty else { return [:] }
        var reports: [Int: [StoredPerson]] = [:]
        for person in try await Self.people(where: "manager_id", in: ids, on: database) {
            if let manager = person.managerID { reports[manager, default: []].append(person) }
        }
        return reports
    }

    /// The database as SQLKit's (both drivers the server uses are).
    private static func sql(_ database: any Database) throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw NotAnSQLDatabase() }
        return sql
    }

    /// The people whose `column` is one of `values`, by name.
    private static func people(where column: String, in values: [Int], on database: any Database) async throws -> [StoredPerson] {
        try await rows(where: column, in: values, on: database).map(StoredPerson.init(row:))
    }

    /// The rows of `people` whose `column` is one of `values`, by name, to be read without
    /// FluentKit's models: a page of the directory brings its people's reports (eight or so
    /// each), and model decoding was most of such a page's time.
    private static func rows(where column: String, in values: [Int], on database: any Database) async throws -> [any SQLRow] {
        try await sql(database).select().column(SQLLiteral.all).from(PersonModel.schema)
            .where(SQLColumn(column), .in, SQLBind.group(values))
            .orderBy("name").orderBy("id")
            .all()
    }

    func chain(of id: Int) async throws -> [StoredPerson]? {
        guard let person = try await find(id: id) else { return nil }
        return try await Self.chain(from: person, on: database)
    }

    func person(ofUser userID: Int) async throws -> StoredPerson? {
        try await PersonModel.query(on: database).filter(\.$userID == userID).first().map(StoredPerson.init)
    }

    func everyone() async throws -> [StoredPerson] {
        try await PersonModel.query(on: database).sort(\.$name).sort(\.$id).all().map(StoredPerson.init)
    }

    func create(_ content: PersonContent) async throws -> StoredPerson {
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        return try await database.transaction { database in
            try await Self.lockWrites(on: database)
            try await Self.checkReferences(of: content, for: nil, on: database)
            if let manager = content.managerID {
                try await Self.refuseDepth(under: manager, carrying: 1, field: "managerId", on: database)
            }
            let model = PersonModel(content, createdAt: timestamp)
            try await model.create(on: database)
            try await FluentAnnouncementRepository.bumpRevision(on: database)
            return try StoredPerson(model)
        }
    }

    func update(
        id: Int, precondition: WritePrecondition, change: @escaping @Sendable (StoredPerson) throws -> PersonContent
    ) async throws -> StoredPerson {
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        return try await database.transaction { database in
            try await Self.lockWrites(on: database)
            let model = try await Self.model(id: id, precondition: precondition, on: database)
            let current = try StoredPerson(model)
            let content = try change(current)
            try await Self.checkReferences(of: content, for: current, on: database)
            if let manager = content.managerID, manager != current.managerID {
                try await Self.refuseLoop(placing: current, under: manager, field: "managerId", on: database)
                let levels = try await Self.levels(from: current.id, on: database)
                try await Self.refuseDepth(under: manager, carrying: levels, field: "managerId", on: database)
            }
            guard content != current.content else { return current }
            model.apply(content)
            model.revision += 1
            model.updatedAt = max(timestamp, model.updatedAt)
            try await model.update(on: database)
            try await FluentAnnouncementRepository.bumpRevision(on: database)
            return try StoredPerson(model)
        }
    }

    func delete(id: Int, precondition: WritePrecondition, reassignment: Reassignment?) async throws {
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        try await database.transaction { database in
            try await Self.lockWrites(on: database)
            let model = try await Self.model(id: id, precondition: precondition, on: database)
            let person = try StoredPerson(model)
            let reports = try await PersonModel.query(on: database).filter(\.$managerID == id).sort(\.$name).all()
            // Where the reports would go is checked even when there are none: a bad reassignTo
            // is refused the same whatever the person's reports.
            var newManager: Int?
            if case .person(let target)? = reassignment {
                guard target != id else {
                    throw APIError.validation([.init(field: "reassignTo", message: "names the person being deleted")])
                }
                guard let targetModel = try await PersonModel.find(target, on: database) else {
                    throw APIError.validation([.init(field: "reassignTo", message: "names no person: \(target)")])
                }
                // A target below the deleted person would become its own reports' manager.
                let above = try await Self.chain(from: try StoredPerson(targetModel), on: database)
                if let index = above.firstIndex(where: { $0.id == id }) {
                    let loop = above[...index].reversed().map(Self.label).joined(separator: " → ")
                    throw APIError.validation([.init(
                        field: "reassignTo", message: "works under the person being deleted (\(loop)), so their reports would manage themselves")])
                }
                newManager = target
                if !reports.isEmpty {
                    // The reports' trees move up one level, under the target.
                    let levels = try await Self.levels(from: id, on: database) - 1
                    try await Self.refuseDepth(under: target, carrying: levels, field: "reassignTo", on: database)
                }
            }
            if !reports.isEmpty {
                guard reassignment != nil else {
                    let names = reports.prefix(5).map { "\($0.name) (#\($0.id ?? 0))" }.joined(separator: ", ")
                    let more = reports.count > 5 ? " and \(reports.count - 5) more" : ""
                    throw APIError.conflict(
                        "\(person.name) (#\(id)) still has \(reports.count) \(reports.count == 1 ? "report" : "reports"): \(names)\(more). "
                            + "Say where they go with ?reassignTo={id}, or ?reassignTo=none to move them to the top.")
                }
                for report in reports {
                    report.managerID = newManager
                    report.revision += 1
                    report.updatedAt = max(timestamp, report.updatedAt)
                    try await report.update(on: database)
                }
            }
            try await model.delete(on: database)
            try await FluentAnnouncementRepository.bumpRevision(on: database)
        }
    }

    /// A page of a search found in memory, its people then read by id; `nil` when the directory
    /// changed in the meantime (someone on the page is gone or no longer matches), and the
    /// database should be searched instead.
    private static func page(
        of snapshot: PeopleSearchSnapshot, _ text: String, _ request: PersonListRequest, index: PeopleSearchIndex, on database: any Database
    ) async throws -> (items: [StoredPerson], total: Int)? {
        let (ids, total) = snapshot.search(text, request)
        var people: [StoredPerson] = []
        if !ids.isEmpty {
            var byID: [Int: StoredPerson] = [:]
            for row in try await Self.rows(where: "id", in: ids, on: database) {
                guard PeopleSearchSnapshot.contains(try row.decode(column: "search_key", as: String.self), text) else { return nil }
                let person = try StoredPerson(row: row)
                byID[person.id] = person
            }
            people = ids.compactMap { byID[$0] }
            guard people.count == ids.count else { return nil }
        }
        guard index.confirm(snapshot) else { return nil }
        return (people, total)
    }

    /// A search of three characters or more on SQLite, through the FTS5 trigram table (see
    /// ``AddPeopleSearchIndex``): the text as a phrase of trigrams, which matches exactly where
    /// it occurs as a substring, answered from the index alone.
    ///
    /// The count comes first; it decides how the page is found. A text many people match is
    /// found soonest by walking the sort's index and stopping at the page; one few people match
    /// by sorting those few (walking the index would read everyone).
    private static func trigramSearch(
        _ text: String, _ request: PersonListRequest, on sql: any SQLDatabase
    ) async throws -> (items: [StoredPerson], total: Int) {
        let phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let fts = AddPeopleSearchIndex.ftsTable
        let counts = try await sql.raw("""
            SELECT (SELECT count(*) FROM \(ident: fts) WHERE \(ident: fts) MATCH \(bind: phrase)) AS total,
                   (SELECT max(id) FROM \(ident: PersonModel.schema)) AS highest
            """).first(decoding: SearchCounts.self)
        let total = counts?.total ?? 0
        guard total > request.offset else { return ([], total) }
        let column = request.sort.column
        let index: String? = switch request.sort {
        case .id, .email: nil
        case .name: "people_name_idx"
        case .jobTitle: "people_job_title_idx"
        case .department: "people_department_idx"
        }
        var walk = ""
        if let index, total * 20 >= counts?.highest ?? 0 {
            walk = "INDEXED BY \(index)"
        }
        let direction = request.isDescending ? "DESC" : "ASC"
        let rows = try await sql.raw("""
            SELECT * FROM \(ident: PersonModel.schema) \(unsafeRaw: walk)
            WHERE id IN (SELECT rowid FROM \(ident: fts) WHERE \(ident: fts) MATCH \(bind: phrase))
            ORDER BY \(ident: column) \(unsafeRaw: direction), id \(unsafeRaw: direction)
            LIMIT \(bind: request.limit) OFFSET \(bind: request.offset)
            """).all()
        return (try rows.map { try StoredPerson($0.decode(fluentModel: PersonModel.self)) }, total)
    }

    /// A search of three characters or more on PostgreSQL, where the `pg_trgm` index (see
    /// ``AddPeopleSearchIndex``) answers the `LIKE`. As on SQLite, the count decides the plan:
    /// few matches are collected through the index first and then sorted (left to itself, the
    /// planner may walk the sort's index instead and read everyone for a rare text: 81 ms
    /// against 13 for 100,000 people); many are left to the planner, which walks the index and
    /// stops at the page.
    private static func postgresSearch(
        _ text: String, _ request: PersonListRequest, on sql: any SQLDatabase
    ) async throws -> (items: [StoredPerson], total: Int) {
        let matches = SearchPattern.like("search_key", containing: text)
        let counts = try await sql.raw("""
            SELECT (SELECT count(*) FROM \(ident: PersonModel.schema) WHERE \(matches)) AS total,
                   (SELECT max(id) FROM \(ident: PersonModel.schema)) AS highest
            """).first(decoding: SearchCounts.self)
        let total = counts?.total ?? 0
        guard total > request.offset else { return ([], total) }
        let highest = counts?.highest ?? 0
        let column = request.sort.column
        let direction = request.isDescending ? "DESC" : "ASC"
        let order: SQLQueryString = "ORDER BY \(ident: column) \(unsafeRaw: direction), id \(unsafeRaw: direction) LIMIT \(bind: request.limit) OFFSET \(bind: request.offset)"
        let query: SQLQueryString = total * 20 >= highest
            ? "SELECT * FROM \(ident: PersonModel.schema) WHERE \(matches) \(order)"
            : "WITH found AS MATERIALIZED (SELECT * FROM \(ident: PersonModel.schema) WHERE \(matches)) SELECT * FROM found \(order)"
        let rows = try await sql.raw(query).all()
        return (try rows.map { try StoredPerson($0.decode(fluentModel: PersonModel.self)) }, total)
    }

    // MARK: Integrity

    /// Serialises people's writes on PostgreSQL until the transaction ends.
    private static func lockWrites(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: writeLock))").run()
    }

    /// The row, after checking `If-Match` against it.
    private static func model(id: Int, precondition: WritePrecondition, on database: any Database) async throws -> PersonModel {
        guard let model = try await PersonModel.find(id, on: database) else { throw APIError.notFound(PersonController.notFound) }
        guard precondition.isSatisfied(by: model.revision) else { throw APIError.preconditionFailed("person") }
        return model
    }

    /// Checks that the manager and account exist and that no one else has the address or the
    /// account; every problem found is named in one 422.
    private static func checkReferences(of content: PersonContent, for current: StoredPerson?, on database: any Database) async throws {
        var errors: [Problem.FieldError] = []
        let emailKey = PersonRules.emailKey(content.email)
        if current.map({ PersonRules.emailKey($0.email) != emailKey }) ?? true,
           let other = try await PersonModel.query(on: database).filter(\.$emailKey == emailKey).first(), other.id != current?.id {
            errors.append(.init(field: "email", message: "is already the address of \(other.name) (#\(other.id ?? 0))"))
        }
        if let manager = content.managerID, manager != current?.managerID {
            if manager == current?.id {
                errors.append(.init(field: "managerId", message: "would make \(current?.name ?? "this person") their own manager"))
            } else if try await PersonModel.find(manager, on: database) == nil {
                errors.append(.init(field: "managerId", message: "names no person: \(manager)"))
            }
        }
        if let user = content.userID, user != current?.userID {
            if try await !Self.holdAccount(user, on: database) {
                errors.append(.init(field: "userId", message: "names no account: \(user)"))
            } else if let other = try await PersonModel.query(on: database).filter(\.$userID == user).first(), other.id != current?.id {
                errors.append(.init(field: "userId", message: "is already the account of \(other.name) (#\(other.id ?? 0))"))
            }
        }
        guard errors.isEmpty else { throw APIError.validation(errors) }
    }

    /// Whether account `id` exists. On PostgreSQL its row is then locked against deletion until
    /// the transaction ends, so a person is never linked to an account deleted meanwhile (the
    /// deletion waits, then unlinks them); SQLite's single writer already serialises the two.
    private static func holdAccount(_ id: Int, on database: any Database) async throws -> Bool {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else {
            return try await UserModel.find(id, on: database) != nil
        }
        return try await sql.select().column("id").from(UserModel.schema).where("id", .equal, id).for(.share).first() != nil
    }

    /// Refuses to make `manager` the manager of `person` when `person` is among `manager`'s
    /// managers (a loop of any length), naming the loop.
    private static func refuseLoop(placing person: StoredPerson, under manager: Int, field: String, on database: any Database) async throws {
        guard let managerModel = try await PersonModel.find(manager, on: database) else { return }
        let above = try await chain(from: try StoredPerson(managerModel), on: database)
        guard let index = above.firstIndex(where: { $0.id == person.id }) else { return }
        let loop = ([person] + above[...index]).map(label).joined(separator: " → ")
        throw APIError.validation([.init(field: field, message: "would make a loop of managers: \(loop)")])
    }

    /// How many levels an organisation may have, the top counting as one: deeper charts are
    /// refused (422), so that every reader of the tree — the server's encoders and pages, the
    /// SDK's decoders, the terminal's drawing — walks a bounded depth.
    static let maxLevels = 100

    /// Refuses to place a tree `levels` deep (a person and everyone under them) below `manager`
    /// when the organisation would then have more than ``maxLevels`` levels.
    private static func refuseDepth(under manager: Int, carrying levels: Int, field: String, on database: any Database) async throws {
        guard let managerModel = try await PersonModel.find(manager, on: database) else { return }
        let above = try await chain(from: try StoredPerson(managerModel), on: database).count
        guard above + levels <= maxLevels else {
            throw APIError.validation([.init(
                field: field,
                message: "would make the organisation \(above + levels) levels deep; it may have at most \(maxLevels)")])
        }
    }

    /// The levels of the tree under `id`, the person counting as one, read level by level (and
    /// no further than ``maxLevels``).
    private static func levels(from id: Int, on database: any Database) async throws -> Int {
        var level = [id]
        var count = 0
        var seen: Set<Int> = [id]
        while !level.isEmpty, count <= maxLevels {
            count += 1
            let next = try await PersonModel.query(on: database).filter(\.$managerID ~~ level).all(\.$id).compactMap { $0 }
            level = next.filter { seen.insert($0).inserted }
        }
        return count
    }

    /// `person` and their managers up to the top. A loop (which the writes above never make,
    /// but a hand-edited database might hold) ends the walk.
    private static func chain(from person: StoredPerson, on database: any Database) async throws -> [StoredPerson] {
        var chain = [person]
        var seen: Set<Int> = [person.id]
        var next = person.managerID
        while let id = next, !seen.contains(id), let model = try await PersonModel.find(id, on: database) {
            let manager = try StoredPerson(model)
            chain.append(manager)
            seen.insert(id)
            next = manager.managerID
        }
        return chain
    }

    private static func label(_ person: StoredPerson) -> String {
        "\(person.name) (#\(person.id))"
    }
}

/// Thrown where a database is not an SQL database, which FluentKit's SQLite and PostgreSQL
/// drivers always are.
private struct NotAnSQLDatabase: Error {}

/// How many people a search matches, and the highest id (how many there are, near enough).
private struct SearchCounts: Decodable {
    let total: Int
    let highest: Int?
}

extension StoredPerson {
    /// A person from a row of `people` read with SQLKit.
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decode(column: "id", as: Int.self), name: try row.decode(column: "name", as: String.self),
            email: try row.decode(column: "email", as: String.self), jobTitle: try row.decode(column: "job_title", as: String.self),
            department: try row.decode(column: "department", as: String.self), phone: try row.decode(column: "phone", as: String?.self),
            location: try row.decode(column: "location", as: String?.self), managerID: try row.decode(column: "manager_id", as: Int?.self),
            userID: try row.decode(column: "user_id", as: Int?.self), revision: try row.decode(column: "revision", as: Int.self),
            createdAt: try row.decode(column: "created_at", as: Date.self), updatedAt: try row.decode(column: "updated_at", as: Date.self))
    }

    init(_ model: PersonModel) throws {
        self.init(
            id: try model.requireID(), name: model.name, email: model.email, jobTitle: model.jobTitle, department: model.department,
            phone: model.phone, location: model.location, managerID: model.managerID, userID: model.userID, revision: model.revision,
            createdAt: model.createdAt, updatedAt: model.updatedAt)
    }
}
