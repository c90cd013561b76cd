import FluentKit
import Foundation
import IntranetAPI
import SQLKit

/// The rules that keep the organisation a tree, checked inside each write's transaction: one
/// writer at a time, references that exist, no loop of managers, at most 100 levels.
extension FluentPersonRepository {
    /// Serialises people's writes on PostgreSQL until the transaction ends.
    static func lockWrites(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: writeLock))").run()
    }

    /// The row, after checking `If-Match` against it.
    static func model(id: Int, precondition: WritePrecondition, on database: any Database) async throws -> PersonModel {
        guard let model = try await PersonModel.find(id, on: database) else { throw APIError.notFound(PersonController.notFound) }
        guard precondition.isSatisfied(by: model.revision) else { throw APIError.preconditionFailed("person") }
        return model
    }

    /// Checks that the manager and account exist and that no one else has the address or the
    /// account; every problem found is named in one 422.
    static func checkReferences(of content: PersonContent, for current: StoredPerson?, on database: any Database) async throws {
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
    static func holdAccount(_ id: Int, on database: any Database) async throws -> Bool {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else {
            return try await UserModel.find(id, on: database) != nil
        }
        return try await sql.select().column("id").from(UserModel.schema).where("id", .equal, id).for(.share).first() != nil
    }

    /// Refuses to make `manager` the manager of `person` when `person` is among `manager`'s
    /// managers (a loop of any length), naming the loop.
    static func refuseLoop(placing person: StoredPerson, under manager: Int, field: String, on database: any Database) async throws {
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
    static func refuseDepth(under manager: Int, carrying levels: Int, field: String, on database: any Database) async throws {
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
    static func levels(from id: Int, on database: any Database) async throws -> Int {
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
    static func chain(from person: StoredPerson, on database: any Database) async throws -> [StoredPerson] {
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

    static func label(_ person: StoredPerson) -> String {
        "\(person.name) (#\(person.id))"
    }}
