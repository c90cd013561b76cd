import FluentKit
import SQLKit

/// Live streams (`GET /events`): the change log they resume from (``ChangeLog``), and its
/// counter and prune mark in `change_revisions`.
struct AddChangeLog: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ChangeLog.schema)
            .field("id", .int64, .identifier(auto: false))
            .field("kind", .string, .required)
            .field("subject", .int64)
            .field("at", .datetime, .required)
            .field("former", .string)
            .field("dedupe", .string)
            .unique(on: "dedupe")
            .create()
        for row in [ChangeLog.counterRow, ChangeLog.prunedRow] where try await RevisionModel.find(row, on: database) == nil {
            try await RevisionModel(id: row, value: 0).create(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChangeLog.schema).delete()
        try await RevisionModel.query(on: database).filter(\.$id ~~ [ChangeLog.counterRow, ChangeLog.prunedRow]).delete()
    }
}
