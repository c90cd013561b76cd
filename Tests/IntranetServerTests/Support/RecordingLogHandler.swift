import Logging
import NIOConcurrencyHelpers

/// A log handler that keeps every line, so tests can read what the server logged.
struct RecordingLogHandler: LogHandler {
    /// The lines logged through every handler sharing this store.
    final class Store: Sendable {
        private let lines = NIOLockedValueBox<[String]>([])

        var all: [String] { lines.withLockedValue { $0 } }

        func append(_ line: String) {
            lines.withLockedValue { $0.append(line) }
        }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        merged.merge(event.metadata ?? [:]) { _, new in new }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        store.append("\(event.level) \(event.message) \(rendered)")
    }

    /// A logger writing into a new store.
    static func logger(level: Logger.Level = .debug) -> (Logger, Store) {
        let store = Store()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(store: store) }
        logger.logLevel = level
        return (logger, store)
    }
}
