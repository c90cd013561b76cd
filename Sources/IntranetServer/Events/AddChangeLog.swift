import FluentKit
import Foundation
import SQLKit

/// Live updates: the change log live streams resume from (``ChangeLog``), its counter and prune
/// mark in `change_revisions`; and for Atom feeds (``AtomFeed``), each account's personal feed
/// token (only its SHA-256) and the site's own random id, which entries' ids are made from.
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
        try await database.schema(FeedTokens.schema)
            .field("user_id", .int64, .identifier(auto: false), .references(UserModel.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        try await database.schema(FeedTokens.siteSchema)
            .field("id", .int64, .identifier(auto: false))
            .field("site_id", .string, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.insert(into: FeedTokens.siteSchema).columns("id", "site_id").values(SQLBind(1), SQLBind(UUID().uuidString.lowercased())).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FeedTokens.siteSchema).delete()
        try await database.schema(FeedTokens.schema).delete()
        try await database.schema(ChangeLog.schema).delete()
        try await RevisionModel.query(on: database).filter(\.$id ~~ [ChangeLog.counterRow, ChangeLog.prunedRow]).delete()
    }
}
