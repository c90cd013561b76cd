import Foundation

/// A request kept in a ``ResponseStore``'s outbox, to be sent when the server can be reached.
public struct QueuedRequest: Sendable, Equatable, Identifiable {
    /// The entry's number in the outbox.
    public var id: Int64
    /// The method: an idempotent one (`PUT`, `DELETE`), so that sending it twice does no harm.
    public var method: String
    /// The path, without a query.
    public var path: String
    /// When it was queued.
    public var queuedAt: Date
}

/// The outbox: idempotent requests a user made while the server could not be reached, kept in
/// the store's file (so they survive the app's end) under the user's partition, until they are
/// sent and answered. Signing out (``forget(partition:)``) drops that user's; ``removeAll()``
/// keeps them, since the user was told they would be sent. The table is added to older files
/// of the same schema version when they are opened.
extension ResponseStore {
    static let outboxSchema = """
        CREATE TABLE IF NOT EXISTS outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scope TEXT NOT NULL,
            partition TEXT NOT NULL,
            method TEXT NOT NULL,
            path TEXT NOT NULL,
            queued_at REAL NOT NULL,
            UNIQUE (scope, partition, method, path)
        );
        """

    /// Queues `method path` for `partition` in `scope`, once: queuing the same request again
    /// returns the entry already there.
    ///
    /// - Returns: the entry, or `nil` when the file could not be written (logged).
    @discardableResult
    public func enqueue(method: String, path: String, scope: String, partition: String) -> QueuedRequest? {
        withConnection(nil) { db -> QueuedRequest? in
            try db.query(
                "INSERT OR IGNORE INTO outbox (scope, partition, method, path, queued_at) VALUES (?, ?, ?, ?, ?)",
                [.text(scope), .text(partition), .text(method), .text(path), .real(Date().timeIntervalSince1970)])
            var found: QueuedRequest?
            try db.query(
                "SELECT id, method, path, queued_at FROM outbox WHERE scope = ? AND partition = ? AND method = ? AND path = ?",
                [.text(scope), .text(partition), .text(method), .text(path)]
            ) { row in
                found = QueuedRequest(
                    id: row.integer(0), method: row.text(1) ?? "", path: row.text(2) ?? "", queuedAt: Date(timeIntervalSince1970: row.real(3)))
            }
            return found
        }
    }

    /// The requests queued for `partition` in `scope`, oldest first.
    public func queued(scope: String, partition: String) -> [QueuedRequest] {
        withConnection([]) { db in
            var entries: [QueuedRequest] = []
            try db.query(
                "SELECT id, method, path, queued_at FROM outbox WHERE scope = ? AND partition = ? ORDER BY id",
                [.text(scope), .text(partition)]
            ) { row in
                entries.append(QueuedRequest(
                    id: row.integer(0), method: row.text(1) ?? "", path: row.text(2) ?? "", queuedAt: Date(timeIntervalSince1970: row.real(3))))
            }
            return entries
        }
    }

    /// Removes a queued request (sent and answered, or refused for good).
    public func dequeue(_ id: Int64) {
        withConnection(()) { db in
            try db.query("DELETE FROM outbox WHERE id = ?", [.integer(id)])
        }
    }
}
