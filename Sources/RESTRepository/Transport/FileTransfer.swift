import Foundation

/// What ``RESTClient/upload(_:fromFile:)`` and ``RESTClient/download(_:to:)`` tell
/// ``URLSessionTransport`` about the exchange under way: the file a request's body is read
/// from, and where the body of its answer goes.
///
/// Task-locals rather than transport parameters, so that every middleware and every transport
/// wrapping another passes them on untouched (``Transport`` stays one method): the request
/// still carries its body's bytes, mapped from the file, for a signature to hash, and a
/// transport that cannot stream sends the bytes or returns the answer's body as usual.
enum FileTransfer {
    /// The file whose content is the body of the request being sent.
    @TaskLocal static var requestBody: URL?
    /// Where the body of a successful answer to the `GET` being sent goes.
    @TaskLocal static var responseBody: DownloadTarget?
}

/// Where a transport puts a body it downloaded into a file, and what became of it.
///
/// `@unchecked Sendable`: its one mutable property sits behind `lock`.
final class DownloadTarget: @unchecked Sendable {
    /// What the transport did with the body.
    enum Outcome {
        /// Nothing: the transport returned the body in memory (or no answer came).
        case notWritten
        /// The body is in ``url``.
        case written
        /// The body arrived but could not be put in ``url``.
        case failed(any Error)
    }

    /// The file the body goes to (replaced when it exists).
    let url: URL
    private let lock = NSLock()
    private var current = Outcome.notWritten

    init(url: URL) {
        self.url = url
    }

    /// What the transport did with the body.
    var outcome: Outcome { lock.withLock { current } }

    /// Moves a downloaded file to ``url``, replacing what a retried download left there.
    /// Called while URLSession still holds `location` (it deletes it right after).
    func take(_ location: URL) {
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: url.path) {
                try manager.removeItem(at: url)
            }
            try manager.moveItem(at: location, to: url)
            lock.withLock { current = .written }
        } catch {
            lock.withLock { current = .failed(error) }
        }
    }
}
