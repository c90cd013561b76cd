import Foundation
import IntranetAPI
import Synchronization

/// How far the imports on this instance are, for `GET /imports/progress/{id}`.
///
/// An admin reserves an id (`POST /imports/progress`: 128 random bits, made here), sends it
/// with the upload (`Import-Progress-Id`), and reads the progress while the upload's answer is
/// pending. The id is the key: reading needs no session, because on SQLite an import holds the
/// database's one connection and a session check would wait for the import to end. A reserved
/// id serves one upload, by the admin who reserved it; unused it is forgotten after ten
/// minutes, used a minute after its import ends; there are never more than ``capacity``.
final class ImportProgressBoard: Sendable {
    private struct Entry {
        var owner: Int
        var status: ImportStatus
        var expiresAt: Date?
    }

    /// The path before the id.
    static let pathPrefix = "/imports/progress/"
    static let capacity = 256
    static let reservationLifetime: TimeInterval = 600
    static let retention: TimeInterval = 60

    private let entries = Mutex<[String: Entry]>([:])
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Whether `id` looks like an id this board makes: 32 lower-case hexadecimal digits.
    static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A new id for `owner`'s next import, or `nil` when the board is full.
    func reserve(for owner: Int) -> String? {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        let time = now()
        return entries.withLock { entries in
            entries = entries.filter { $0.value.expiresAt.map { time < $0 } ?? true }
            guard entries.count < Self.capacity else { return nil }
            entries[id] = Entry(
                owner: owner,
                status: ImportStatus(stage: .waiting, bytesReceived: 0, totalBytes: nil, bytesParsed: 0, itemsRead: 0),
                expiresAt: time.addingTimeInterval(Self.reservationLifetime))
            return id
        }
    }

    /// Starts following the upload named `id`; false unless `owner` reserved it and it is unused.
    func begin(_ id: String, owner: Int, totalBytes: Int?) -> Bool {
        entries.withLock { entries in
            guard let entry = entries[id], entry.owner == owner, entry.status.stage == .waiting else { return false }
            entries[id] = Entry(
                owner: owner,
                status: ImportStatus(stage: .receiving, bytesReceived: 0, totalBytes: totalBytes, bytesParsed: 0, itemsRead: 0),
                expiresAt: nil)
            return true
        }
    }

    func update(_ id: String, _ change: (inout ImportStatus) -> Void) {
        entries.withLock { entries in
            guard var entry = entries[id] else { return }
            change(&entry.status)
            entries[id] = entry
        }
    }

    func end(_ id: String, stage: ImportStatus.Stage) {
        let expiry = now().addingTimeInterval(Self.retention)
        entries.withLock { entries in
            entries[id]?.status.stage = stage
            entries[id]?.expiresAt = expiry
        }
    }

    /// The import's status, while it is kept.
    func status(_ id: String) -> ImportStatus? {
        let time = now()
        return entries.withLock { entries in
            guard let entry = entries[id], entry.expiresAt.map({ time < $0 }) ?? true else { return nil }
            return entry.status
        }
    }
}
