import CSQLite3
import Foundation

/// A failed SQLite call: the result code and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The primary result code (`SQLITE_FULL`, `SQLITE_CORRUPT`, …).
    var code: Int32
    var message: String

    var description: String { "SQLite error \(code): \(message)" }

    /// Whether the file is damaged or not a database at all: the store is then moved aside.
    var meansDamagedFile: Bool {
        code == SQLITE_CORRUPT || code == SQLITE_NOTADB
    }

    /// Whether another connection holds a lock (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    var meansBusy: Bool {
        code == SQLITE_BUSY || code == SQLITE_LOCKED
    }
}

/// One connection to an SQLite file, through the C API: just what the response store needs.
///
/// Not thread-safe on its own; ``ResponseStore`` serialises every use behind its lock.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens (creating when missing) the database at `path`.
    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code & 0xff, message: message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 0)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs statements that take no parameters and return nothing worth reading.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs one statement with parameters, calling `row` for each result row.
    ///
    /// - Parameters:
    ///   - sql: the statement, with `?` placeholders.
    ///   - parameters: the values bound to the placeholders, in order.
    ///   - row: reads one row.
    func query(_ sql: String, _ parameters: [SQLiteValue] = [], row: (SQLiteRow) throws -> Void = { _ in }) throws {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw error(prepared) }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, SQLiteConnection.transient)
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), SQLiteConnection.transient)
                }
            case .null: code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            try row(SQLiteRow(statement: statement))
        }
    }

    /// The first column of the first row, as an integer (0 when there is no row).
    func integer(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> Int64 {
        var result: Int64 = 0
        try query(sql, parameters) { result = $0.integer(0) }
        return result
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Waits up to `milliseconds` for another connection's lock instead of failing at once.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code & 0xff, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound to a statement.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null
}

/// One result row, valid only inside the row callback.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: bytes)
    }

    func blob(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
