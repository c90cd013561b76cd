import Foundation
import Logging

/// A persistent store of answers to `GET` requests, so an app can show what it read before
/// while the network is gone, and revalidate it cheaply (`If-None-Match`, 304) when it is back.
///
/// One SQLite file (WAL journal, 0600) holds the answers, keyed by ``StoreKey`` (scope, user,
/// method, URL and the request fields that choose a representation). The store is bounded in
/// bytes: when it grows past ``maximumBytes`` the least recently used answers go first. It is
/// safe to use from many tasks at once (every use is serialised) and from several processes at
/// once (SQLite's file locks, waiting up to five seconds for another writer).
///
/// The store never fails a request: a file that is damaged, truncated, not a database or of
/// another schema version is moved aside (`<file>.broken`) and a fresh one made, with a log
/// line; a write that fails (a full disk) is logged and skipped. Use it through
/// ``ResponseCaching`` on a ``RESTClient``.
public final class ResponseStore: @unchecked Sendable {
    /// The store's file.
    public let fileURL: URL
    /// The most bytes of answers (bodies, header fields and keys) kept before the least
    /// recently used are evicted.
    public let maximumBytes: Int
    /// Serialises every use of ``file`` and of ``revalidations``.
    private let lock = NSLock()
    /// The file and its recovery (``StoreFile``); used only under ``lock``.
    private let file: StoreFile
    private var revalidations: [UUID: Task<Void, Never>] = [:]

    /// Opens the store at `fileURL`, creating it (and its directory, 0700) when missing.
    ///
    /// - Parameters:
    ///   - fileURL: the SQLite file, e.g. `…/Caches/intranet/responses.sqlite`.
    ///   - maximumBytes: the bound in bytes (32 MiB by default); an answer larger than a
    ///     quarter of it is not stored.
    ///   - logger: where recoveries and failed writes are reported.
    public convenience init(
        fileURL: URL, maximumBytes: Int = 32 << 20,
        logger: Logger = Logger(label: "RESTRepository.ResponseStore")
    ) {
        self.init(fileURL: fileURL, maximumBytes: maximumBytes, logger: logger, pageLimit: nil)
    }

    /// Opens the store; `pageLimit` caps the file's pages (`PRAGMA max_page_count`), which is
    /// how tests make the disk "full".
    init(fileURL: URL, maximumBytes: Int, logger: Logger, pageLimit: Int?) {
        self.fileURL = fileURL
        self.maximumBytes = max(maximumBytes, 1)
        self.file = StoreFile(fileURL: fileURL, logger: logger, pageLimit: pageLimit)
    }

    // MARK: Revalidating in the background

    /// Runs `revalidation` in a task of its own, kept until it ends (see
    /// ``waitForRevalidations()``).
    ///
    /// - Parameter revalidation: the request that refreshes a stored answer.
    public func revalidate(_ revalidation: @escaping @Sendable () async -> Void) {
        let id = UUID()
        lock.withLock {
            revalidations[id] = Task { [weak self] in
                await revalidation()
                self?.finishRevalidation(id)
            }
        }
    }

    /// Waits until every revalidation started so far has ended.
    public func waitForRevalidations() async {
        while let task = lock.withLock({ revalidations.values.first }) {
            await task.value
        }
    }

    private func finishRevalidation(_ id: UUID) {
        lock.withLock { _ = revalidations.removeValue(forKey: id) }
    }

    // MARK: The file

    /// Runs `body` on the open connection, one use at a time: the store's storage
    /// (ResponseStore+Storage.swift, which evicts through ResponseStore+Eviction.swift) reaches
    /// the file only through here. ``StoreFile/withConnection(_:_:)`` opens the file and heals
    /// it; any failure it cannot heal is logged and `fallback` returned.
    func withConnection<Result>(_ fallback: Result, _ body: (SQLiteConnection) throws -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return file.withConnection(fallback, body)
    }
}

/// What a ``ResponseStore`` holds, for a settings screen or `intranet cache info`.
public struct ResponseStoreInfo: Sendable, Equatable {
    /// The store's file.
    public var fileURL: URL
    /// Stored answers.
    public var entries: Int
    /// Bytes of stored answers (bodies, header fields, keys).
    public var bytes: Int
    /// The file's size on disk, write-ahead log included.
    public var fileBytes: Int
    /// The bound in bytes.
    public var maximumBytes: Int
}
