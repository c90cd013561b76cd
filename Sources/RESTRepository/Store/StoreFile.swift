import Foundation
import Logging

/// The response store's recovery: its SQLite file, opened on first use and kept usable.
///
/// A file that is damaged, truncated, not a database or of another schema version is moved
/// aside (`<file>.broken`) and a fresh one made; an operation that meets another process's
/// lock (`SQLITE_BUSY`) is tried again shortly; the journal is switched to WAL when it is not
/// yet. Any other failure is logged and the caller's fallback returned.
///
/// Not thread-safe on its own; ``ResponseStore`` serialises every use behind its lock.
final class StoreFile {
    /// The store's file.
    let fileURL: URL
    private let logger: Logger
    private let pageLimit: Int?
    private var connection: SQLiteConnection?

    /// Describes the file; nothing is opened until the first ``withConnection(_:_:)``.
    ///
    /// - Parameters:
    ///   - fileURL: the SQLite file.
    ///   - logger: where recoveries and failed operations are reported.
    ///   - pageLimit: caps the file's pages (`PRAGMA max_page_count`), which is how tests make
    ///     the disk "full"; `nil` for no cap.
    init(fileURL: URL, logger: Logger, pageLimit: Int?) {
        self.fileURL = fileURL
        self.logger = logger
        self.pageLimit = pageLimit
    }

    /// Runs `body` on the open connection, opening (and if need be rebuilding) the file first.
    /// A damaged file found on the way is moved aside and `body` runs once more on a fresh one;
    /// any other failure is logged and `fallback` returned.
    func withConnection<Result>(_ fallback: Result, _ body: (SQLiteConnection) throws -> Result) -> Result {
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
        // One statement, so one snapshot: another process creating the store at the same moment
        // is seen before its schema or after it, never half-way (its id not yet, its version
        // already).
        var (application, version, tables): (Int64, Int64, Int64) = (0, 0, 0)
        try db.query(
            "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), (SELECT COUNT(*) FROM sqlite_master)"
        ) { row in
            (application, version, tables) = (row.integer(0), row.integer(1), row.integer(2))
        }
        if application == ResponseStore.applicationID && version == ResponseStore.schemaVersion {
            // Added within version 1: a file made before it gains it.
            try db.execute(ResponseStore.outboxSchema)
            return
        }
        guard application == 0, version == 0, tables == 0 else {
            throw StoreFileProblem(reason: "the file is not a response store of schema version \(ResponseStore.schemaVersion) (application id \(application), version \(version))")
        }
        try ResponseStore.createSchema(in: db)
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
}

/// Why an existing file is not used as the store.
private struct StoreFileProblem: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
