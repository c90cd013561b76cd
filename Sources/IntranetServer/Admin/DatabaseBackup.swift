import Foundation
import VaporCSQLite

/// A consistent copy of a live SQLite database, made with SQLite's online backup API while
/// servers keep reading and writing it (`intranet-server backup FILE`).
///
/// The copy is taken in one read transaction (one backup step over every page), so it is the
/// database as of one commit: with the WAL journal the server uses, writers are not blocked
/// meanwhile. It is written beside the destination under a temporary name, checked with
/// `PRAGMA integrity_check`, made readable by its owner only (it holds password hashes), and
/// only then given its name; an existing file is never overwritten.
public enum DatabaseBackup {
    /// What a backup made.
    public struct Report: Sendable, CustomStringConvertible {
        /// The copy.
        public var path: String
        /// Its size in bytes.
        public var bytes: Int
        /// The database pages copied.
        public var pages: Int

        /// "backed up N pages (B bytes) to PATH".
        public var description: String {
            "backed up \(pages) pages (\(bytes) bytes) to \(path); integrity check: ok"
        }
    }

    /// Copies the database `storage` names to a new file at `destination`.
    ///
    /// - Throws: ``BackupError`` when the storage is not an SQLite file (PostgreSQL has
    ///   `pg_dump`), the database does not exist, `destination` exists or cannot be written, or
    ///   the copy fails its integrity check. Nothing is left at `destination` then.
    public static func copy(_ storage: AppConfiguration.Storage, to destination: String) throws -> Report {
        let source: String
        switch storage {
        case .sqliteFile(let path):
            source = path
        case .sqliteInMemory:
            throw BackupError("a temporary database cannot be backed up")
        case .postgres:
            throw BackupError(
                "backup copies SQLite databases; for PostgreSQL use pg_dump, e.g. "
                    + "pg_dump --format=custom --file=FILE '\(storage.redactedDescription)' (docs/operations.md, Backups)")
        }
        guard FileManager.default.fileExists(atPath: source) else {
            throw BackupError("there is no database at \(source)")
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw BackupError("\(destination) already exists; a backup never overwrites a file, so name a new one")
        }
        let directory = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BackupError("cannot create \(destination): there is no directory \(directory)")
        }
        let partial = destination + ".partial-\(UUID().uuidString.prefix(8))"
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: partial + suffix)
            }
        }
        let pages = try copyPages(from: source, to: partial)
        try checkIntegrity(of: partial)
        guard chmod(partial, 0o600) == 0 else {
            throw BackupError("cannot restrict \(partial) to its owner: \(String(cString: strerror(errno)))")
        }
        // link() fails when the name is taken, unlike rename(): never replace a file that
        // appeared meanwhile.
        guard link(partial, destination) == 0 else {
            throw BackupError("cannot create \(destination): \(String(cString: strerror(errno)))")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
        return Report(path: destination, bytes: bytes, pages: pages)
    }

    /// Copies every page of `source` into a new database at `destination`; answers the count.
    private static func copyPages(from source: String, to destination: String) throws -> Int {
        let from = try open(source, flags: SQLITE_OPEN_READWRITE)
        defer { sqlite_nio_sqlite3_close_v2(from) }
        let to = try open(destination, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        defer { sqlite_nio_sqlite3_close_v2(to) }
        sqlite_nio_sqlite3_busy_timeout(from, 5000)
        guard let backup = sqlite_nio_sqlite3_backup_init(to, "main", from, "main") else {
            throw BackupError("cannot start the backup: \(message(of: to))")
        }
        var result: Int32
        let deadline = Date().addingTimeInterval(60)
        repeat {
            // -1: every page in one step, that is in one read transaction of the source.
            result = sqlite_nio_sqlite3_backup_step(backup, -1)
            if result == SQLITE_BUSY || result == SQLITE_LOCKED {
                guard Date() < deadline else { break }
                usleep(50_000)
            }
        } while result == SQLITE_OK || result == SQLITE_BUSY || result == SQLITE_LOCKED
        let pages = Int(sqlite_nio_sqlite3_backup_pagecount(backup))
        sqlite_nio_sqlite3_backup_finish(backup)
        guard result == SQLITE_DONE else {
            throw BackupError("the backup failed: \(String(cString: sqlite_nio_sqlite3_errstr(result)))")
        }
        // The pages carry the source's WAL mode; a backup is one self-contained file.
        guard sqlite_nio_sqlite3_exec(to, "PRAGMA journal_mode = DELETE", nil, nil, nil) == SQLITE_OK else {
            throw BackupError("cannot finish the copy: \(message(of: to))")
        }
        return pages
    }

    /// Throws unless `PRAGMA integrity_check` on the database at `path` answers "ok".
    private static func checkIntegrity(of path: String) throws {
        let database = try open(path, flags: SQLITE_OPEN_READONLY)
        defer { sqlite_nio_sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        guard sqlite_nio_sqlite3_prepare_v2(database, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else {
            throw BackupError("cannot check the copy: \(message(of: database))")
        }
        defer { sqlite_nio_sqlite3_finalize(statement) }
        guard sqlite_nio_sqlite3_step(statement) == SQLITE_ROW, let text = sqlite_nio_sqlite3_column_text(statement, 0) else {
            throw BackupError("cannot check the copy: \(message(of: database))")
        }
        let verdict = String(cString: text)
        guard verdict == "ok" else {
            throw BackupError("the copy failed its integrity check: \(verdict.prefix(200))")
        }
    }

    private static func open(_ path: String, flags: Int32) throws -> OpaquePointer {
        var database: OpaquePointer?
        let result = sqlite_nio_sqlite3_open_v2(path, &database, flags, nil)
        guard result == SQLITE_OK, let database else {
            let reason = database.map(message(of:)) ?? String(cString: sqlite_nio_sqlite3_errstr(result))
            sqlite_nio_sqlite3_close_v2(database)
            throw BackupError("cannot open \(path): \(reason)")
        }
        return database
    }

    private static func message(of database: OpaquePointer) -> String {
        String(cString: sqlite_nio_sqlite3_errmsg(database))
    }
}

/// Why a backup was refused or failed.
public struct BackupError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for the person who ran the backup.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
