import FluentKit
import Foundation
import NIOCore
import SQLKit

/// Where the bytes of stored files live, named by the lowercase hex SHA-256 of those bytes.
///
/// The seam for moving files out of the database: what a file is, who uses it and when it
/// stopped being used stay in the database (``StoredFiles``, the attachment tables); only the
/// bytes are behind this protocol. ``DatabaseBlobStore``, the one implementation, keeps them
/// in the database itself (SQLite embedded, PostgreSQL when scaled out), so every instance sees
/// every file with nothing else to run and a backup of the database holds them. Another store
/// (a directory, an object store) would implement these four operations; writes run inside the
/// attachment's transaction, so such a store must tolerate bytes written for a transaction that
/// then rolled back (the clean-up's ``delete(_:on:)`` removes them by name).
protocol BlobStore: Sendable {
    /// Stores the `size` bytes of the file at `path` as `hash`, in pieces: never the whole file
    /// in memory.
    func write(_ hash: String, fromFileAt path: String, size: Int64, on database: any Database) async throws
    /// Stores `bytes` as `hash`.
    func write(_ hash: String, bytes: ByteBuffer, on database: any Database) async throws
    /// The bytes `range` of `hash` (whose size is `size`), in pieces, in order.
    func read(_ hash: String, size: Int64, range: Range<Int64>, on database: any Database) -> AsyncThrowingStream<ByteBuffer, any Error>
    /// Removes the bytes of each of `hashes`.
    func delete(_ hashes: [String], on database: any Database) async throws
}

/// The ``BlobStore`` in the database: each file in rows of at most 1 MiB (`stored_file_chunks`),
/// so reading a range reads only the rows it touches.
struct DatabaseBlobStore: BlobStore {
    static let schema = "stored_file_chunks"
    /// The bytes in one row.
    static let chunkSize = 1 << 20

    func write(_ hash: String, fromFileAt path: String, size: Int64, on database: any Database) async throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? handle.close() }
        var sequence = 0
        var written: Int64 = 0
        while written < size {
            let data = try handle.read(upToCount: Self.chunkSize) ?? Data()
            guard !data.isEmpty else { throw CocoaError(.fileReadUnknown) }
            try await insert(hash, sequence: sequence, data: data, on: database)
            written += Int64(data.count)
            sequence += 1
        }
    }

    func write(_ hash: String, bytes: ByteBuffer, on database: any Database) async throws {
        var remaining = bytes
        var sequence = 0
        while remaining.readableBytes > 0 {
            let piece = remaining.readSlice(length: min(Self.chunkSize, remaining.readableBytes))!
            try await insert(hash, sequence: sequence, data: Data(piece.readableBytesView), on: database)
            sequence += 1
        }
    }

    private func insert(_ hash: String, sequence: Int, data: Data, on database: any Database) async throws {
        try await Self.sql(database).insert(into: Self.schema).columns("hash", "seq", "data")
            .values(SQLBind(hash), SQLBind(sequence), SQLBind(data)).run()
    }

    func read(_ hash: String, size: Int64, range: Range<Int64>, on database: any Database) -> AsyncThrowingStream<ByteBuffer, any Error> {
        // Pulled: a row is read only when the one before was taken, so a slow reader holds one
        // row (1 MiB) in memory, never the file.
        let cursor = ChunkCursor(hash: hash, range: range, database: database)
        return AsyncThrowingStream(unfolding: { try await cursor.next() })
    }

    func delete(_ hashes: [String], on database: any Database) async throws {
        guard !hashes.isEmpty else { return }
        try await Self.sql(database).delete(from: Self.schema).where("hash", .in, hashes).run()
    }

    private static func sql(_ database: any Database) throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw BlobStoreError.notSQL }
        return sql
    }
}

/// Reads a range of one stored file row by row, on demand.
private actor ChunkCursor {
    let hash: String
    let range: Range<Int64>
    let database: any Database
    private var next: Int

    init(hash: String, range: Range<Int64>, database: any Database) {
        self.hash = hash
        self.range = range
        self.database = database
        next = Int(range.lowerBound / Int64(DatabaseBlobStore.chunkSize))
    }

    /// The next piece of the range; `nil` after its end.
    func next() async throws -> ByteBuffer? {
        let chunk = Int64(DatabaseBlobStore.chunkSize)
        guard !range.isEmpty, Int64(next) * chunk < range.upperBound else { return nil }
        guard let sql = database as? any SQLDatabase else { throw BlobStoreError.notSQL }
        let row = try await sql.select().column("data").from(DatabaseBlobStore.schema)
            .where("hash", .equal, hash).where("seq", .equal, next).first()
        guard let data = try row?.decode(column: "data", as: Data.self) else { throw BlobStoreError.missing(hash) }
        let start = Int64(next) * chunk
        let from = Int(max(range.lowerBound - start, 0))
        let to = Int(min(range.upperBound - start, Int64(data.count)))
        guard from < to else { throw BlobStoreError.missing(hash) }
        next += 1
        return ByteBuffer(bytes: data[data.startIndex + from..<data.startIndex + to])
    }
}

/// What went wrong reading or writing stored bytes.
enum BlobStoreError: Error, CustomStringConvertible {
    /// The database is not an SQL one.
    case notSQL
    /// Rows of a file are missing.
    case missing(String)

    var description: String {
        switch self {
        case .notSQL: "stored files need an SQL database"
        case .missing(let hash): "the bytes of stored file \(hash) are incomplete"
        }
    }
}
