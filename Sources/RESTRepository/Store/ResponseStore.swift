import CSQLite3
import Foundation
import HTTPTypes
import Logging

/// A persistent store of answers to `GET` requests, so an app can show what it read before
/// while the network is gone, and revalidate it cheaply (`If-None-Match`, 304) when it is back.
///
/// One SQLite file (WAL journal, 0600) holds the answers, keyed by ``StoreKey`` (scope, user,
/// method, URL and the request fields that choose a representation). The store is bounded in
/// bytes: when it grows past ``maximumBytes`` the least recently used answers go first. It is
/// safe to use from many tasks at once (every use is serialised) and from several processes at
/// once (SQLite's file locks, waiting up to five seconds for another writer).
///
/// The store never fails a request: a file that is damaged, truncated, not a database or of
/// another schema version is moved aside (`<file>.broken`) and a fresh one made, with a log
/// line; a write that fails (a full disk) is logged and skipped. Use it through
/// ``ResponseCaching`` on a ``RESTClient``.
public final class ResponseStore: @unchecked Sendable {
    /// The store's file.
    public let fileURL: URL
    /// The most bytes of answers (bodies, header fields and keys) kept before the least
    /// recently used are evicted.
    public let maximumBytes: Int
    private let logger: Logger
    private let pageLimit: Int?
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    private var revalidations: [UUID: Task<Void, Never>] = [:]

    /// The schema this code writes; a file with another version is moved aside.
    static let schemaVersion: Int64 = 1
    /// Marks the file as ours (`PRAGMA application_id`), so a stranger's database is not read.
    static let applicationID: Int64 = 0x494E_5452  // "INTR"

    /// Opens the store at `fileURL`, creating it (and its directory, 0700) when missing.
    ///
    /// - Parameters:
    ///   - fileURL: the SQLite file, e.g. `…/Caches/intranet/responses.sqlite`.
    ///   - maximumBytes: the bound in bytes (32 MiB by default); an answer larger than a
    ///     quarter of it is not stored.
    ///   - logger: where recoveries and failed writes are reported.
    public convenience init(
        fileURL: URL, maximumBytes: Int = 32 << 20,
        logger: Logger = Logger(label: "RESTRepository.ResponseStore")
    ) {
        self.init(fileURL: fileURL, maximumBytes: maximumBytes, logger: logger, pageLimit: nil)
    }

    /// Opens the store; `pageLimit` caps the file's pages (`PRAGMA max_page_count`), which is
    /// how tests make the disk "full".
    init(fileURL: URL, maximumBytes: Int, logger: Logger, pageLimit: Int?) {
        self.fileURL = fileURL
        self.maximumBytes = max(maximumBytes, 1)
        self.logger = logger
        self.pageLimit = pageLimit
    }

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

    /// Forgets every answer stored for one user (at sign-out).
    ///
    /// - Parameter partition: the user's partition (see ``StoreKey/partition``).
    public func forget(partition: String) {
        withConnection(()) { db in
            try db.query("DELETE FROM responses WHERE partition = ?", [.text(partition)])
        }
    }

    /// Forgets every stored answer.
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

    // MARK: Revalidating in the background

    /// Runs `revalidation` in a task of its own, kept until it ends (see
    /// ``waitForRevalidations()``).
    ///
    /// - Parameter revalidation: the request that refreshes a stored answer.
    public func revalidate(_ revalidation: @escaping @Sendable () async -> Void) {
        let id = UUID()
        lock.withLock {
            revalidations[id] = Task { [weak self] in
                await revalidation()
                self?.finishRevalidation(id)
            }
        }
    }

    /// Waits until every revalidation started so far has ended.
    public func waitForRevalidations() async {
        while let task = lock.withLock({ revalidations.values.first }) {
            await task.value
        }
    }

    private func finishRevalidation(_ id: UUID) {
        lock.withLock { _ = revalidations.removeValue(forKey: id) }
    }

    // MARK: The file

    /// Runs `body` on the open connection, opening (and if need be rebuilding) the file first.
    /// A damaged file found on the way is moved aside and `body` runs once more on a fresh one;
    /// any other failure is logged and `fallback` returned.
    private func withConnection<Result>(_ fallback: Result, _ body: (SQLiteConnection) throws -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        var damagedFileMovedAside = false
        var busyRetries = 0
        while true {
            do {
                return try body(try openConnection())
            } catch let error as SQLiteError where error.meansDamagedFile && !damagedFileMovedAside {
                damagedFileMovedAside = true
                moveAside(because: error.description)
            } catch let error as SQLiteError where error.meansBusy && busyRetries < 50 {
                // Another process holds a lock SQLite would not wait for (a WAL recovery, a
                // read turning into a write): try again shortly, up to about a second.
                busyRetries += 1
                usleep(20_000)
            } catch {
                logger.warning("response store: \(error); the request goes on without the store", metadata: ["file": "\(fileURL.path)"])
                return fallback
            }
        }
    }

    private func openConnection() throws -> SQLiteConnection {
        if let connection { return connection }
        let directory = fileURL.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if let problem = try Self.incompatibility(of: fileURL) {
            moveAside(because: problem)
        }
        for _ in 1...2 {
            if let problem = try openAndPrepare() {
                moveAside(because: problem)
                continue
            }
            if let connection { return connection }
        }
        throw StoreFileProblem(reason: "the file could not be replaced by a fresh store")
    }

    /// Opens the file and keeps the connection, or returns why the file is not a store (the
    /// connection then closed, so it touches no file once this one is moved aside).
    private func openAndPrepare() throws -> String? {
        let db = try SQLiteConnection(path: fileURL.path)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
        do {
            try prepare(db)
        } catch let problem as StoreFileProblem {
            return problem.reason
        }
        connection = db
        return nil
    }

    /// Checks the file's identity and schema version, creating the schema in a new file.
    private func prepare(_ db: SQLiteConnection) throws {
        db.setBusyTimeout(milliseconds: 5000)
        // Switching the journal takes an exclusive lock: only when the file is not in WAL yet.
        var mode = ""
        try db.query("PRAGMA journal_mode") { mode = $0.text(0) ?? "" }
        if mode.lowercased() != "wal" {
            try db.execute("PRAGMA journal_mode = WAL")
        }
        try db.execute("PRAGMA synchronous = NORMAL")
        if let pageLimit {
            try db.execute("PRAGMA max_page_count = \(pageLimit)")
        }
        let application = try db.integer("PRAGMA application_id")
        let version = try db.integer("PRAGMA user_version")
        let tables = try db.integer("SELECT COUNT(*) FROM sqlite_master")
        if application == Self.applicationID && version == Self.schemaVersion {
            return
        }
        guard application == 0, version == 0, tables == 0 else {
            throw StoreFileProblem(reason: "the file is not a response store of schema version \(Self.schemaVersion) (application id \(application), version \(version))")
        }
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
            PRAGMA application_id = \(Self.applicationID);
            PRAGMA user_version = \(Self.schemaVersion);
            COMMIT;
            """)
    }

    /// A reason the file cannot be a healthy store, found without SQLite: a file shorter than
    /// the page count its header states (truncated), with no write-ahead log that could hold
    /// the missing pages.
    private static func incompatibility(of fileURL: URL) throws -> String? {
        guard let handle = FileHandle(forReadingAtPath: fileURL.path) else { return nil }
        defer { try? handle.close() }
        let header = try handle.read(upToCount: 100) ?? Data()
        guard !header.isEmpty else { return nil }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            return "the file is not an SQLite database"
        }
        let size = try handle.seekToEnd()
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        let pages = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: fileURL.path + "-wal")[.size] as? Int) ?? 0
        if walBytes == 0, pageSize > 0, UInt64(pages * pageSize) > size {
            return "the file is truncated (\(size) bytes, its header states \(pages) pages of \(pageSize))"
        }
        return nil
    }

    /// Closes the connection and renames the file (and its journal files) to `<file>.broken`,
    /// replacing an earlier broken copy, so the next use starts a fresh store.
    private func moveAside(because reason: String) {
        connection = nil
        let manager = FileManager.default
        let aside = fileURL.path + ".broken"
        try? manager.removeItem(atPath: aside)
        try? manager.moveItem(atPath: fileURL.path, toPath: aside)
        try? manager.removeItem(atPath: fileURL.path + "-wal")
        try? manager.removeItem(atPath: fileURL.path + "-shm")
        logger.warning(
            "response store: \(reason); moved it aside and started a fresh store",
            metadata: ["file": "\(fileURL.path)", "movedTo": "\(aside)"])
    }

    /// Deletes the least recently used answers until the total is within ``maximumBytes``.
    private func evict(_ db: SQLiteConnection) throws {
        var excess = try db.integer("SELECT COALESCE(SUM(bytes), 0) FROM responses") - Int64(maximumBytes)
        guard excess > 0 else { return }
        var victims: [String] = []
        try db.query("SELECT key, bytes FROM responses ORDER BY used_at") { row in
            guard excess > 0, let key = row.text(0) else { return }
            victims.append(key)
            excess -= row.integer(1)
        }
        for key in victims {
            try db.query("DELETE FROM responses WHERE key = ?", [.text(key)])
        }
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

/// Why an existing file is not used as the store.
private struct StoreFileProblem: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// What a ``ResponseStore`` holds, for a settings screen or `intranet cache info`.
public struct ResponseStoreInfo: Sendable, Equatable {
    /// The store's file.
    public var fileURL: URL
    /// Stored answers.
    public var entries: Int
    /// Bytes of stored answers (bodies, header fields, keys).
    public var bytes: Int
    /// The file's size on disk, write-ahead log included.
    public var fileBytes: Int
    /// The bound in bytes.
    public var maximumBytes: Int
}
