import FluentKit
import Foundation
import IntranetAPI
import SQLKit

/// Creates the `people` table of the staff directory, the indexes its lists, links and
/// uniqueness rules use, and, on PostgreSQL, the trigger that tells other instances of a change
/// (see ``AddChangeNotifications``).
struct CreatePeople: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PersonModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("name", .string, .required)
            .field("email", .string, .required)
            .field("email_key", .string, .required)
            .field("job_title", .string, .required)
            .field("department", .string, .required)
            .field("phone", .string)
            .field("location", .string)
            .field("manager_id", .int64, .references(PersonModel.schema, "id"))
            .field("user_id", .int64, .references(UserModel.schema, "id", onDelete: .setNull))
            .field("search_key", .string, .required)
            .field("revision", .int64, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "email_key")
            .unique(on: "user_id")
            .create()
        for column in ["manager_id", "name", "job_title", "department"] {
            try await database.createIndex(named: "people_\(column)_idx", on: PersonModel.schema, column: column)
        }
        if let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" {
            try await sql.raw("""
                CREATE TRIGGER people_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(ident: PersonModel.schema)
                FOR EACH STATEMENT EXECUTE FUNCTION intranet_notify_change('content')
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PersonModel.schema).delete()
    }
}

/// Gives a new database the sample organisation (``SeedPeople``), once: Fluent records that
/// this migration ran, so a restart never seeds again, even after people are deleted. A
/// database that existed before the directory did (its announcements table was made in an
/// earlier batch of migrations) is left with an empty directory: its organisation is real.
struct SeedSamplePeople: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard try await PersonModel.query(on: database).count() == 0 else { return }
        let batches = Dictionary(
            try await MigrationLog.query(on: database).all().map { ($0.name, $0.batch) }, uniquingKeysWith: { first, _ in first })
        if let announcements = batches[CreateAnnouncements().name], let people = batches[CreatePeople().name], announcements != people {
            return
        }
        let now = FluentAnnouncementRepository.millisecondPrecision(Date())
        // One level of the organisation per statement (each level's managers exist by then),
        // then its ids read back by address: ten statements rather than forty.
        var ids: [String: Int] = [:]
        var remaining = SeedPeople.all
        while !remaining.isEmpty {
            let level = remaining.filter { $0.manager.map { ids[$0] != nil } ?? true }
            guard !level.isEmpty else { break }
            remaining.removeAll { entry in level.contains { $0.name == entry.name } }
            let models = level.map { entry in
                PersonModel(PersonContent(
                    name: entry.name, email: SeedPeople.email(of: entry.name), jobTitle: entry.jobTitle, department: entry.department,
                    phone: entry.phone, location: entry.location, managerID: entry.manager.flatMap { ids[$0] }, userID: nil), createdAt: now)
            }
            try await models.create(on: database)
            let names = Dictionary(level.map { (PersonRules.emailKey(SeedPeople.email(of: $0.name)), $0.name) }, uniquingKeysWith: { first, _ in first })
            for model in try await PersonModel.query(on: database).filter(\.$emailKey ~~ Array(names.keys)).all() {
                if let name = names[model.emailKey] { ids[name] = try model.requireID() }
            }
        }
    }

    func revert(on database: any Database) async throws {
        try await PersonModel.query(on: database).delete()
    }
}
