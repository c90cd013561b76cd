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
    /// Where writes commit (as changes of ``ChangeDomain/people``), and what learns of them.
    let changes: ChangePipeline
    /// The clock, injectable so tests can tell timestamps apart.
    var now: @Sendable () -> Date = { Date() }
    /// The search in memory, when the server keeps one; searches go to the database while it
    /// has no current snapshot (and always without one).
    let searchIndex: PeopleSearchIndex?
    /// How searches are answered, fastest first (``PeopleSearchStrategy``).
    let searchStrategies: [any PeopleSearchStrategy]

    /// - Parameters:
    ///   - changes: the server's pipeline; without one (tools, tests), writes still count in
    ///     the database's revisions, but nothing in this process hears of them.
    init(
        database: any Database, changes: ChangePipeline? = nil, now: @escaping @Sendable () -> Date = { Date() },
        searchIndex: PeopleSearchIndex? = nil
    ) {
        self.database = database
        self.changes = changes ?? ChangePipeline(database: database)
        self.now = now
        self.searchIndex = searchIndex
        searchStrategies = Self.searchStrategies(on: database, index: searchIndex)
    }

    /// The advisory lock key people's writes take on PostgreSQL.
    static let writeLock = 7_301_100

    func list(_ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int) {
        guard let search = request.search.map(PersonRules.searchKey).flatMap({ $0.isEmpty ? nil : $0 }) else {
            return try await PlainPeopleSearch(database: database).page(matching: nil, request)
        }
        // No field holds a control character (only `search_key`'s separators are), and a NUL
        // would cut the text short in SQLite and be refused by PostgreSQL: such a text matches
        // no one. (The API refuses it with a 400 first; this keeps every caller safe.)
        if search.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return ([], 0)
        }
        for strategy in searchStrategies {
            if let found = try await strategy.search(search, request) { return found }
        }
        return try await PlainPeopleSearch(database: database).page(matching: search, request)
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
    static func rows(where column: String, in values: [Int], on database: any Database) async throws -> [any SQLRow] {
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
        return try await changes.write(.people, on: database) { database, changed in
            try await Self.lockWrites(on: database)
            try await Self.checkReferences(of: content, for: nil, on: database)
            if let manager = content.managerID {
                try await Self.refuseDepth(under: manager, carrying: 1, field: "managerId", on: database)
            }
            let model = PersonModel(content, createdAt: timestamp)
            try await model.create(on: database)
            changed.subjects = [.person(id: try model.requireID(), .created)]
            return try StoredPerson(model)
        }
    }

    func update(
        id: Int, precondition: WritePrecondition, change: @escaping @Sendable (StoredPerson) throws -> PersonContent
    ) async throws -> StoredPerson {
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        return try await changes.write(.people, on: database) { database, changed in
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
            guard content != current.content else {
                changed.domains = []  // nothing written: nothing to let go of
                return current
            }
            model.apply(content)
            model.revision += 1
            model.updatedAt = max(timestamp, model.updatedAt)
            try await model.update(on: database)
            changed.subjects = [.person(id: id, .changed)]
            return try StoredPerson(model)
        }
    }

    func delete(id: Int, precondition: WritePrecondition, reassignment: Reassignment?) async throws {
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        try await changes.write(.people, on: database) { database, changed in
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
                    changed.subjects.append(.person(id: try report.requireID(), .changed))
                }
            }
            try await model.delete(on: database)
            changed.subjects.append(.person(id: id, .deleted))
        }
    }
}

/// Thrown where a database is not an SQL database, which FluentKit's SQLite and PostgreSQL
/// drivers always are.
private struct NotAnSQLDatabase: Error {}


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
