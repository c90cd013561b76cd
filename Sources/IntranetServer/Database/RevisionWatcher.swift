import FluentKit
import Logging
import ServiceLifecycle

/// Finds the writes other processes make to the same SQLite file — `intranet-server users
/// delete` or an import run beside the server — and hands them to the ``ChangePipeline`` as
/// changes made elsewhere, so what the server remembers (answers, sessions, the people search)
/// follows them within ``interval``.
///
/// It reads the revision counters (``ChangeRevisions``) once per ``interval``: one small query
/// a second, whatever the load. The pipeline knows the revisions its own writes made
/// (``ChangePipeline/write(_:on:_:)``), so only another process's writes count; on PostgreSQL the
/// change feed does this job instead (it also hears writes made by hand).
struct RevisionWatcher: Service {
    /// How often the revisions are read: the bound within which another process's write counts.
    static let interval = Duration.seconds(1)

    let database: any Database
    let changes: ChangePipeline
    let work: BackgroundWork
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if let revisions = try await work.run({ try await ChangeRevisions.read(on: database) }) {
                        changes.catchUp(with: revisions)
                    }
                } catch where !Task.isCancelled {
                    logger.warning("could not read the change revisions", metadata: ["error": "\(String(reflecting: error))"])
                }
                try await Task.sleep(for: Self.interval)
            }
        }
    }
}
