import Crypto
import FluentKit
import SQLKit

/// Acknowledgements (API 3.0), first step: each announcement gains whether it asks for them,
/// its due date, its round (0 until it first asks) and how many acknowledgements of the round
/// came from accounts since deleted. Before the seed, which writes announcements with every
/// column the model has; the tables come with ``AddAcknowledgements``.
struct AddAcknowledgementColumns: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let columns: [(String, DatabaseSchema.DataType, [DatabaseSchema.FieldConstraint])] = [
            ("ack_required", .bool, [.required, .sql(.default(false))]),
            ("ack_due_at", .datetime, []),
            ("ack_round", .int64, [.required, .sql(.default(0))]),
            ("ack_former", .int64, [.required, .sql(.default(0))]),
        ]
        for (name, type, constraints) in columns {
            try await database.schema(AnnouncementModel.schema)
                .field(.definition(name: .key(.string(name)), dataType: type, constraints: constraints)).update()
        }
    }

    func revert(on database: any Database) async throws {
        for column in ["ack_required", "ack_due_at", "ack_round", "ack_former"] {
            try await database.schema(AnnouncementModel.schema).deleteField(.string(column)).update()
        }
    }
}

/// Acknowledgements (API 3.0), second step: acknowledgements get a table (one row per account
/// and round), and so does the count of distinct readers who opened a post (a sketch of 4,096
/// small numbers per announcement, ``OpenCounter``, whose key is made here). The new domain
/// ``ChangeDomain/acknowledgements`` gets its revision row, and on PostgreSQL the change feed
/// watches the table.
struct AddAcknowledgements: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AcknowledgementModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("announcement_id", .int64, .required, .references(AnnouncementModel.schema, "id", onDelete: .cascade))
            .field("user_id", .int64, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("round", .int64, .required)
            .field("acknowledged_at", .datetime, .required)
            .unique(on: "announcement_id", "user_id", "round")
            .create()
        try await database.createIndex(named: "announcement_acknowledgements_user_idx", on: AcknowledgementModel.schema, column: "user_id")
        try await database.schema(OpenCounter.schema)
            .field("announcement_id", .int64, .required, .references(AnnouncementModel.schema, "id", onDelete: .cascade))
            .field("register", .int64, .required)
            .field("rank", .int64, .required)
            .compositeIdentifier(over: "announcement_id", "register")
            .create()
        try await database.schema(OpenCounter.keySchema)
            .field("id", .int64, .identifier(auto: false))
            .field("key", .string, .required)
            .create()
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }.map { String(format: "%02x", $0) }.joined()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.insert(into: OpenCounter.keySchema).columns("id", "key").values(SQLBind(1), SQLBind(key)).run()
        let row = ChangeDomain.acknowledgements.revisionRow
        if try await RevisionModel.find(row, on: database) == nil {
            try await RevisionModel(id: row, value: 0).create(on: database)
        }
        guard sql.dialect.name == "postgresql" else { return }
        try await sql.raw("""
            CREATE TRIGGER \(unsafeRaw: AcknowledgementModel.schema)_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
            ON \(ident: AcknowledgementModel.schema)
            FOR EACH STATEMENT EXECUTE FUNCTION intranet_notify_change('\(unsafeRaw: ChangeDomain.acknowledgements.name)')
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OpenCounter.keySchema).delete()
        try await database.schema(OpenCounter.schema).delete()
        try await database.schema(AcknowledgementModel.schema).delete()
        try await RevisionModel.query(on: database).filter(\.$id == ChangeDomain.acknowledgements.revisionRow).delete()
    }
}
