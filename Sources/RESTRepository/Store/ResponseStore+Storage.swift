import Foundation

/// The response store's storage: the `responses` table, its schema and the statements that read
/// and write answers. Every statement runs through ``ResponseStore/withConnection(_:_:)``, which
/// serialises it and heals or logs a failure (``StoreFile``), so none of these throws.
extension ResponseStore {
    /// The schema this code writes; a file with another version is moved aside.
    static let schemaVersion: Int64 = 1
    /// Marks the file as ours (`PRAGMA application_id`), so a stranger's database is not read.
    static let applicationID: Int64 = 0x494E_5452  // "INTR"

    // MARK: Reading and writing

    /// The stored answer for `key`, marking it as recently used; `nil` when there is none.
    ///
    /// - Parameter key: the request's key.
    public func response(for key: StoreKey) -> StoredResponse? {
        response(for: key, markingUsed: true)
    }

    /// The stored answer for `key`; `markingUsed: false` saves a write when the caller is about
    /// to ``confirm(_:)`` or ``save(_:for:)`` it anyway.
    func response(for key: StoreKey, markingUsed: Bool) -> StoredResponse? {
        withConnection(nil) { db in
            var found: StoredResponse?
            try db.query(
                "SELECT status, headers, body, etag, confirmed_at FROM responses WHERE key = ?",
                [.text(key.text)]
            ) { row in
                found = StoredResponse(
                    status: Int(row.integer(0)), headerFields: StoredResponse.fields(from: row.blob(1)),
                    body: row.blob(2), etag: row.text(3),
                    confirmedAt: Date(timeIntervalSince1970: row.real(4)))
            }
            if found != nil, markingUsed {
                try db.query("UPDATE responses SET used_at = ? WHERE key = ?", [.real(Self.now()), .text(key.text)])
            }
            return found
        }
    }

    /// Stores an answer for `key`, replacing an older one, then evicts the least recently used
    /// answers beyond ``maximumBytes``. A failure is logged, never thrown.
    ///
    /// - Parameters:
    ///   - response: the answer's status, header fields and body.
    ///   - key: the request's key.
    public func save(_ response: StoredResponse, for key: StoreKey) {
        let headers = StoredResponse.data(from: response.headerFields)
        let bytes = response.body.count + headers.count + key.text.utf8.count
        guard bytes <= maximumBytes / 4 else {
            remove(key)
            return
        }
        withConnection(()) { db in
            try db.execute("BEGIN IMMEDIATE")
            do {
                let now = Self.now()
                try db.query(
                    """
                    INSERT OR REPLACE INTO responses
                        (key, scope, partition, path, status, headers, body, etag, confirmed_at, used_at, bytes)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(key.text), .text(key.scope), .text(key.partition), .text(key.path),
                        .integer(Int64(response.status)), .blob(headers), .blob(response.body),
                        response.etag.map { .text($0) } ?? .null,
                        .real(response.confirmedAt.timeIntervalSince1970), .real(now), .integer(Int64(bytes)),
                    ])
                try evict(db)
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Records that the server confirmed the stored answer for `key` (a 304) just now, which
    /// also marks it as recently used.
    ///
    /// - Parameter key: the request's key.
    public func confirm(_ key: StoreKey) {
        withConnection(()) { db in
            let now = Self.now()
            try db.query("UPDATE responses SET confirmed_at = ?, used_at = ? WHERE key = ?", [.real(now), .real(now), .text(key.text)])
        }
    }

    /// Forgets the answer for `key` (the server said it is gone).
    ///
    /// - Parameter key: the request's key.
    public func remove(_ key: StoreKey) {
        withConnection(()) { db in
            try db.query("DELETE FROM responses WHERE key = ?", [.text(key.text)])
        }
    }

    /// Forgets every answer a write to `path` may have changed, for every user: the resource
    /// itself (any query), everything under it, and the collections above it (their lists).
    ///
    /// - Parameters:
    ///   - path: the written path without a query, e.g. `/announcements/5`.
    ///   - scope: the scope the write went to (see ``StoreKey/scope``).
    public func invalidate(path: String, scope: String) {
        var affected = [path]
        var parent = path
        while let slash = parent.lastIndex(of: "/"), slash != parent.startIndex {
            parent = String(parent[..<slash])
            affected.append(parent)
        }
        let below = Self.likePattern(prefix: path.hasSuffix("/") ? path : path + "/")
        withConnection(()) { db in
            let marks = Array(repeating: "?", count: affected.count).joined(separator: ", ")
            try db.query(
                "DELETE FROM responses WHERE scope = ? AND (path IN (\(marks)) OR path LIKE ? ESCAPE '\\')",
                [.text(scope)] + affected.map { .text($0) } + [.text(below)])
        }
    }

    /// Forgets every answer stored for one user, and the requests queued for them in the
    /// outbox (at sign-out).
    ///
    /// - Parameter partition: the user's partition (see ``StoreKey/partition``).
    public func forget(partition: String) {
        withConnection(()) { db in
            try db.query("DELETE FROM responses WHERE partition = ?", [.text(partition)])
            try db.query("DELETE FROM outbox WHERE partition = ?", [.text(partition)])
        }
    }

    /// Forgets every stored answer (the outbox stays: its requests were promised).
    public func removeAll() {
        withConnection(()) { db in
            try db.execute("DELETE FROM responses")
            try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try? db.execute("VACUUM")
        }
    }

    /// What the store holds now: entries, bytes, the file and its size on disk.
    public var info: ResponseStoreInfo {
        let counts = withConnection((0, 0)) { db in
            var result = (0, 0)
            try db.query("SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM responses") { row in
                result = (Int(row.integer(0)), Int(row.integer(1)))
            }
            return result
        }
        let fileBytes = [fileURL.path, fileURL.path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        return ResponseStoreInfo(
            fileURL: fileURL, entries: counts.0, bytes: counts.1, fileBytes: fileBytes, maximumBytes: maximumBytes)
    }

    // MARK: The schema

    /// Creates the `responses` table and its indexes in a new, empty file and marks the file as
    /// a store of ``schemaVersion`` (``applicationID``), in one transaction.
    static func createSchema(in db: SQLiteConnection) throws {
        try db.execute("""
            BEGIN IMMEDIATE;
            CREATE TABLE IF NOT EXISTS responses (
                key TEXT PRIMARY KEY NOT NULL,
                scope TEXT NOT NULL,
                partition TEXT NOT NULL,
                path TEXT NOT NULL,
                status INTEGER NOT NULL,
                headers BLOB NOT NULL,
                body BLOB NOT NULL,
                etag TEXT,
                confirmed_at REAL NOT NULL,
                used_at REAL NOT NULL,
                bytes INTEGER NOT NULL
            );
            CREATE INDEX IF NOT EXISTS responses_used ON responses (used_at);
            CREATE INDEX IF NOT EXISTS responses_path ON responses (scope, path);
            CREATE INDEX IF NOT EXISTS responses_partition ON responses (partition);
            \(Self.outboxSchema)
            PRAGMA application_id = \(Self.applicationID);
            PRAGMA user_version = \(Self.schemaVersion);
            COMMIT;
            """)
    }

    private static func likePattern(prefix: String) -> String {
        var escaped = ""
        for character in prefix {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "%"
    }

    private static func now() -> Double { Date().timeIntervalSince1970 }
}
