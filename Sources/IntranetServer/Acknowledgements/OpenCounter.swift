import Crypto
import FluentKit
import Foundation
import Logging
import SQLKit
import ServiceLifecycle
import Synchronization

/// Counts how many distinct signed-in readers opened each announcement, without keeping who.
///
/// Each announcement has a HyperLogLog sketch of ``registers`` small numbers: an open by
/// account `a` hashes `a` with the installation's key (made at migration, kept in the database)
/// into one register and a rank, and the register keeps the largest rank it saw. Nothing per
/// person is stored, the same reader opening twice changes nothing, and sketches written by
/// several instances merge by taking the larger rank (an upsert, so no write is lost). The
/// count is an estimate: exact in practice up to a few hundred readers, within about 2 % (one
/// standard error 1.6 %) beyond.
///
/// Opens are gathered in memory and written every ``flushInterval`` (and before a reach report
/// is read, and at shutdown), so that reading a post never waits for a write.
final class OpenCounter: Service, Sendable {
    static let schema = "announcement_opens"
    static let keySchema = "open_counter_keys"
    /// Registers per announcement (2^12).
    static let registers = 4_096
    private static let registerBits = 12
    /// How often gathered opens are written.
    static let flushInterval = Duration.seconds(2)
    /// Most announcements gathered between two writes; beyond it, opens of others wait for the
    /// next write (a crawl of every post by one reader is still counted, a little later).
    static let maxGathered = 10_000

    private let database: any Database
    private let changes: ChangePipeline
    private let work: BackgroundWork
    private let logger: Logger
    /// Registers raised since the last write: announcement → register → rank.
    private let gathered = Mutex([Int: [Int: Int]]())
    private let key = Mutex<[UInt8]?>(nil)

    init(database: any Database, changes: ChangePipeline, work: BackgroundWork, logger: Logger) {
        self.database = database
        self.changes = changes
        self.work = work
        self.logger = logger
    }

    /// Notes that `userID` opened announcement `announcementID`: a cheap in-memory step. The
    /// key is read when the server starts (``loadKey()``), before any request.
    func noteOpen(of announcementID: Int, by userID: Int) {
        guard let key = key.withLock({ $0 }) else { return }
        let (register, rank) = Self.place(userID, key: SymmetricKey(data: key))
        gathered.withLock { gathered in
            guard gathered[announcementID] != nil || gathered.count < Self.maxGathered else { return }
            let known = gathered[announcementID]?[register] ?? 0
            if rank > known { gathered[announcementID, default: [:]][register] = rank }
        }
    }

    /// The announcement a request target reads one of (`/announcements/{id}`, with `.json` or a
    /// query), as the API and the web pages name it; `nil` for any other target.
    static func announcementID(inTarget target: String) -> Int? {
        let path = target.prefix { $0 != "?" }
        let prefix = AnnouncementController.collectionPath + "/"
        guard path.hasPrefix(prefix) else { return nil }
        var rest = path.dropFirst(prefix.count)
        if rest.hasSuffix(".json") { rest = rest.dropLast(5) }
        guard !rest.isEmpty, rest.count <= 10, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(rest)
    }

    /// The register and rank of `userID` under `key`: the top 12 bits of a keyed hash pick the
    /// register; the rank is one more than the count of leading zeros of the other 52.
    static func place(_ userID: Int, key: SymmetricKey) -> (register: Int, rank: Int) {
        var code = HMAC<SHA256>(key: key)
        withUnsafeBytes(of: Int64(userID).bigEndian) { code.update(data: $0) }
        let hash = Data(code.finalize()).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let register = Int(hash >> UInt64(64 - registerBits))
        let rest = hash << UInt64(registerBits)
        let rank = min(rest.leadingZeroBitCount, 64 - registerBits) + 1
        return (register, rank)
    }

    /// The estimated number of distinct readers from the registers that are not zero (HyperLogLog
    /// with linear counting for small numbers).
    static func estimate(ranks: [Int]) -> Int {
        guard !ranks.isEmpty else { return 0 }
        let m = Double(registers)
        let zeros = Double(registers - ranks.count)
        let sum = zeros + ranks.reduce(0.0) { $0 + pow(2.0, -Double($1)) }
        let alpha = 0.7213 / (1 + 1.079 / m)
        let raw = alpha * m * m / sum
        if raw <= 2.5 * m, zeros > 0 {
            return Int((m * log(m / zeros)).rounded())
        }
        return Int(raw.rounded())
    }

    /// How many distinct readers opened `announcementID`, with this instance's gathered opens
    /// written first.
    func opened(_ announcementID: Int) async throws -> Int {
        try await flush()
        let rows = try await sql().select().column("rank").from(Self.schema).where("announcement_id", .equal, announcementID).all()
        return Self.estimate(ranks: try rows.map { try $0.decode(column: "rank", as: Int.self) })
    }

    /// Writes the gathered opens: one statement per announcement, raising each register to the
    /// larger rank. Opens of an announcement deleted meanwhile are dropped.
    func flush() async throws {
        let batch = gathered.withLock { gathered in
            defer { gathered = [:] }
            return gathered
        }
        guard !batch.isEmpty else { return }
        let sql = try sql()
        let larger = sql.dialect.name == "postgresql" ? "GREATEST" : "MAX"
        do {
            try await write(batch, larger: larger)
        } catch {
            // Kept for the next write: an open is not lost to a failed one.
            gathered.withLock { gathered in
                for (announcement, ranks) in batch {
                    gathered[announcement, default: [:]].merge(ranks) { max($0, $1) }
                }
            }
            throw error
        }
    }

    /// Raises the registers of `batch` in one transaction, in the order of announcement and
    /// register, so that two flushes (of this instance or another) never lock rows crosswise.
    private func write(_ batch: [Int: [Int: Int]], larger: String) async throws {
        // A write like any other, of no domain: nothing remembered shows opens.
        try await changes.write([], on: database) { database, _ in
            guard let sql = database as? any SQLDatabase else { return }
            for (announcement, ranks) in batch.sorted(by: { $0.key < $1.key }) {
                for chunk in ranks.sorted(by: { $0.key < $1.key }).chunked(by: 200) {
                    let values = chunk.map { register, rank -> SQLQueryString in
                        "SELECT CAST(\(bind: register) AS INTEGER) AS register, CAST(\(bind: rank) AS INTEGER) AS rank"
                    }.joined(separator: " UNION ALL ")
                    try await sql.raw("""
                        INSERT INTO \(ident: Self.schema) (announcement_id, register, rank)
                        SELECT a.id, r.register, r.rank FROM \(ident: AnnouncementModel.schema) a, (\(values)) r
                        WHERE a.id = \(bind: announcement)
                        ON CONFLICT (announcement_id, register) DO UPDATE
                        SET rank = \(unsafeRaw: larger)(\(ident: Self.schema).rank, excluded.rank)
                        """).run()
                }
            }
        }
    }

    /// Removes the sketch of a deleted announcement (in its deletion's transaction).
    static func remove(announcementID: Int, on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.delete(from: schema).where("announcement_id", .equal, announcementID).run()
    }

    /// Writes the gathered opens every ``flushInterval`` until shutdown, then once more.
    func run() async throws {
        while (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: Self.flushInterval) })) != nil {
            await flushLogged()
        }
        await flushLogged()
    }

    private func flushLogged() async {
        do {
            _ = try await work.run { try await flush() }
        } catch {
            logger.warning("Could not write the counts of opened announcements", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// Reads the key made at migration (the server does, as it starts).
    ///
    /// - Throws: ``MissingKey`` when the database has none.
    @discardableResult
    func loadKey() async throws -> [UInt8] {
        if let known = key.withLock({ $0 }) { return known }
        let row = try await sql().select().column("key").from(Self.keySchema).where("id", .equal, 1).first()
        guard let hex = try row?.decode(column: "key", as: String.self), let bytes = Self.bytes(hex: hex), bytes.count == 32 else {
            throw MissingKey()
        }
        key.withLock { $0 = bytes }
        return bytes
    }

    /// The key made at migration is not in the database (a restore of part of it).
    struct MissingKey: Error, CustomStringConvertible {
        var description: String { "The key of the open counter is missing from \(OpenCounter.keySchema)." }
    }

    private func sql() throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw SQLDatabaseRequired() }
        return sql
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { index -> UInt8? in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
        }.reduce(into: [UInt8]?([])) { result, byte in
            if let byte { result?.append(byte) } else { result = nil }
        }
    }
}

extension Array {
    /// The elements in consecutive slices of at most `size`.
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
