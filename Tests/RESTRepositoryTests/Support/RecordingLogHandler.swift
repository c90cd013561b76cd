import Foundation
import Logging

/// A swift-log handler that keeps every line, for assertions.
struct RecordingLogHandler: LogHandler {
    /// One logged line.
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    /// The lines, shared by copies of the handler (swift-log copies handlers freely).
    final class Store: @unchecked Sendable {
        // `@unchecked`: `entries` is guarded by `lock`.
        private let lock = NSLock()
        private var storage: [Entry] = []

        var entries: [Entry] { lock.withLock { storage } }

        func append(_ entry: Entry) { lock.withLock { storage.append(entry) } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append(Entry(level: event.level, message: event.message.description, metadata: event.metadata ?? [:]))
    }

    /// A logger writing to a fresh store.
    static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "test") { _ in RecordingLogHandler(store: store) }, store)
    }
}
