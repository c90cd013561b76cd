import FluentKit
import Foundation
import SQLKit

/// Personal Atom feed tokens: one per account at most, shown to its owner, stored as its
/// SHA-256 only (`feed_tokens`). A token reads that account's feed and nothing else; making a
/// new one (or revoking) ends the old at once.
struct FeedTokens: Sendable {
    static let schema = "feed_tokens"
    /// One row: the site's random id, which Atom ids are made from.
    static let siteSchema = "feed_site"

    let database: any Database
    var now: @Sendable () -> Date = { Date() }

    /// A new token for `userID`, replacing any earlier one.
    func renew(for userID: Int) async throws -> String {
        let token = SessionToken.make()
        try await database.transaction { database in
            guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
            try await sql.raw("DELETE FROM \(ident: Self.schema) WHERE user_id = \(bind: userID)").run()
            try await sql.raw("""
                INSERT INTO \(ident: Self.schema) (user_id, token_hash, created_at)
                VALUES (\(bind: userID), \(bind: SessionToken.hash(token)), \(bind: now()))
                """).run()
        }
        return token
    }

    /// Ends `userID`'s token, if any; whether there was one.
    @discardableResult
    func revoke(for userID: Int) async throws -> Bool {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        let had = try await sql.raw("SELECT 1 AS found FROM \(ident: Self.schema) WHERE user_id = \(bind: userID)").first() != nil
        try await sql.raw("DELETE FROM \(ident: Self.schema) WHERE user_id = \(bind: userID)").run()
        return had
    }

    /// The account whose token this is, or `nil`.
    func user(forToken token: String) async throws -> Int? {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        return try await sql.raw("SELECT user_id FROM \(ident: Self.schema) WHERE token_hash = \(bind: SessionToken.hash(token))")
            .first()?.decode(column: "user_id", as: Int.self)
    }

    /// The site's random id.
    func siteID() async throws -> String {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        return try await sql.raw("SELECT site_id FROM \(ident: Self.siteSchema) WHERE id = 1").first()?
            .decode(column: "site_id", as: String.self) ?? "unknown"
    }
}
