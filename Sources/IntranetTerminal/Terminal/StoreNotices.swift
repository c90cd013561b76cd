import Foundation
import Logging
import RESTRepository

/// One-line notices about kept answers (a stale answer shown, a store rebuilt, a write that
/// failed), gathered while a request runs and written to standard error after it.
final class StoreNotices: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [String] = []
    private var written: Set<String> = []

    /// Queues a line, once per run.
    func add(_ line: String) {
        lock.withLock {
            guard written.insert(line).inserted else { return }
            pending.append(line)
        }
    }

    /// The queued lines, emptying the queue.
    func take() -> [String] {
        lock.withLock {
            defer { pending = [] }
            return pending
        }
    }

    /// A logger whose warnings become notices.
    func logger() -> Logger {
        Logger(label: "intranet.cache") { _ in NoticeLogHandler(notices: self) }
    }

    /// The notice for an answer shown from the store because the server could not be reached.
    ///
    /// - Parameters:
    ///   - origin: where the answer came from.
    ///   - server: the server that could not be reached.
    ///   - now: the time to measure the answer's age to.
    static func staleAnswer(_ origin: ResponseOrigin, server: URL, now: Date = Date()) -> String {
        let when = origin.confirmedAt == nil ? "" : " from \(age(seconds: origin.age(at: now))) ago"
        return "intranet: cannot reach \(server.absoluteString); showing its answer\(when), kept on this machine"
    }

    /// An age for people: seconds, minutes, hours or days.
    static func age(seconds: TimeInterval) -> String {
        let whole = Int(seconds)
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min"
        case ..<86_400: return "\(whole / 3600) h"
        default:
            let days = whole / 86_400
            return days == 1 ? "1 day" : "\(days) days"
        }
    }
}

/// Passes warnings and worse to ``StoreNotices``.
private struct NoticeLogHandler: LogHandler {
    let notices: StoreNotices
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let file = event.metadata?["file"].map { " (\($0))" } ?? ""
        notices.add("intranet: \(event.message)\(file)")
    }
}

/// Revalidations still running when a command has written its output (`--cache store-first`):
/// the process waits for them, so the next run starts from a fresh store.
enum PendingRevalidations {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var stores: [ResponseStore] = []

    /// Remembers a store whose revalidations must end before the process does.
    static func register(_ store: ResponseStore) {
        lock.withLock { stores.append(store) }
    }

    /// Waits for every registered store's revalidations, forgetting the stores.
    static func drain() async {
        let current = lock.withLock {
            defer { stores = [] }
            return stores
        }
        for store in current {
            await store.waitForRevalidations()
        }
    }
}
