import Foundation
import IntranetAPI
import Synchronization

/// How far the imports in flight on this instance are, for `GET /imports/progress/{id}`.
///
/// The client names its import with a random id (`Import-Progress-Id` on the upload) and asks
/// for it while the upload's answer is pending; only the admin who sent the import can read it.
/// Entries are forgotten a minute after their import ends, and there are never more than
/// ``capacity``.
final class ImportProgressBoard: Sendable {
    private struct Entry {
        var owner: Int
        var status: ImportStatus
        var endedAt: Date?
    }

    static let capacity = 256
    static let retention: TimeInterval = 60

    private let entries = Mutex<[String: Entry]>([:])
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Whether `id` can name an import: 16 to 64 letters, digits and dashes.
    static func isValidID(_ id: String) -> Bool {
        (16...64).contains(id.utf8.count) && id.utf8.allSatisfy { $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Starts tracking an import; false when the id is taken or the board is full.
    func begin(_ id: String, owner: Int, totalBytes: Int?) -> Bool {
        let time = now()
        return entries.withLock { entries in
            entries = entries.filter { $0.value.endedAt.map { time.timeIntervalSince($0) < Self.retention } ?? true }
            guard entries[id] == nil, entries.count < Self.capacity else { return false }
            entries[id] = Entry(owner: owner, status: ImportStatus(stage: .receiving, bytesReceived: 0, totalBytes: totalBytes, bytesParsed: 0, itemsRead: 0))
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
        let time = now()
        entries.withLock { entries in
            entries[id]?.status.stage = stage
            entries[id]?.endedAt = time
        }
    }

    /// The import's status, for its owner only.
    func status(_ id: String, for user: Int) -> ImportStatus? {
        entries.withLock { entries in
            guard let entry = entries[id], entry.owner == user else { return nil }
            return entry.status
        }
    }
}
