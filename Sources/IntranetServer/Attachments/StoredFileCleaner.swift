import FluentKit
import Foundation
import Logging
import ServiceLifecycle

/// Removes stored files nothing uses any more, once their grace period has passed
/// (``StoredFiles/sweep(at:blobs:on:)``): a pass a minute after start, then every hour, on every
/// instance (a pass is one transaction; two instances sweeping at once remove each file once).
final class StoredFileCleaner: Service, Sendable {
    static let interval = Duration.seconds(3600)
    static let firstPass = Duration.seconds(60)

    private let database: any Database
    private let blobs: any BlobStore
    private let work: BackgroundWork
    private let now: @Sendable () -> Date
    private let logger: Logger

    init(database: any Database, blobs: any BlobStore, work: BackgroundWork, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.database = database
        self.blobs = blobs
        self.work = work
        self.now = now
        self.logger = logger
    }

    func run() async throws {
        var passes = 0
        while true {
            let wait = passes == 0 ? Self.firstPass : Self.interval
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: wait) })) != nil else { return }
            passes += 1
            do {
                let removed = try await work.run { try await StoredFiles.sweep(at: now(), blobs: blobs, on: database) }
                if let removed, removed.files > 0 {
                    logger.info("removed \(removed.files) stored files (\(removed.bytes) bytes) unused for \(Int(StoredFiles.gracePeriod / 3600)) hours")
                }
            } catch {
                logger.warning("the clean-up of unused stored files failed; it runs again in an hour: \(String(reflecting: error))")
            }
        }
    }
}
