import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads a site's media from the site itself, within bounds: only from the hosts the
/// export names (a redirect to any other host is refused, never followed), at most ``limit``
/// bytes a file (a larger one is cut off as soon as its `Content-Length` or its bytes say so),
/// at most ``timeout`` a file, at most ``maxFiles`` files an import.
///
/// Each file is written to a temporary file as its bytes arrive (through `URLSession`'s
/// delegate: on Linux, `URLSession` has no streaming read of its own), so memory does not
/// grow with the files. No cookie, cache or credential is kept.
final class SiteMediaFetcher: MediaSource {
    /// The export's hosts, lower case, without port.
    let hosts: Set<String>
    let limit: Int64
    let timeout: Duration
    let maxFiles: Int
    private let session: URLSession
    private let transfers: TransferDelegate
    private let started = Mutex(0)

    init(hosts: Set<String>, limit: Int64, timeout: Duration, maxFiles: Int) {
        self.hosts = hosts
        self.limit = limit
        self.timeout = timeout
        self.maxFiles = maxFiles
        let configuration = URLSessionConfiguration.ephemeral
        // Only a backstop: each read has a deadline of its own. FoundationNetworking takes whole
        // seconds, and times a request out at once below one.
        let seconds = (Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18).rounded(.up) + 1
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        transfers = TransferDelegate(hosts: hosts, limit: limit, timeout: timeout)
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit {
        // A session keeps its delegate until it is invalidated.
        session.invalidateAndCancel()
    }

    func read(_ reference: UploadReference) async throws -> ReceivedFile {
        guard let url = URL(string: reference.url), let host = url.host, hosts.contains(UploadReference.host(of: host)) else {
            throw MediaReadError.unreadable("not a URL of the site: \(reference.url)")
        }
        let allowed = started.withLock { count in
            count += 1
            return count <= maxFiles
        }
        guard allowed else { throw MediaReadError.tooMany(limit: maxFiles) }
        try Task.checkCancellation()
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("intranet-server (WordPress media import)", forHTTPHeaderField: "User-Agent")
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        let sink = try FileSink(limit: limit)
        let transfers = self.transfers
        let deadline = Task { [timeout] in
            try await Task.sleep(for: timeout)
            transfers.fail(id, with: .timedOut(timeout))
        }
        defer { deadline.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfers.start(task, sink: sink, continuation: continuation)
            }
        } onCancel: {
            transfers.cancel(id)
        }
    }
}

/// Writes each download to its file as it arrives, and ends it on the first sign it must not
/// go on (a status other than 200, too many bytes, a redirect elsewhere, its deadline).
// URLSession calls it on its own queue; every transfer's state sits behind the lock.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Transfer {
        var task: URLSessionDataTask
        var sink: FileSink
        var continuation: CheckedContinuation<ReceivedFile, any Error>
        var failure: MediaReadError?
    }

    private let hosts: Set<String>
    private let limit: Int64
    private let timeout: Duration
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    init(hosts: Set<String>, limit: Int64, timeout: Duration) {
        self.hosts = hosts
        self.limit = limit
        self.timeout = timeout
    }

    func start(_ task: URLSessionDataTask, sink: FileSink, continuation: CheckedContinuation<ReceivedFile, any Error>) {
        lock.withLock { transfers[task.taskIdentifier] = Transfer(task: task, sink: sink, continuation: continuation) }
        task.resume()
    }

    /// Ends transfer `id` with `failure` (the first failure is the one reported).
    func fail(_ id: Int, with failure: MediaReadError) {
        note(failure, of: id)?.cancel()
    }

    /// Records `failure` for transfer `id` (unless it has one), without ending it; its task.
    @discardableResult
    private func note(_ failure: MediaReadError, of id: Int) -> URLSessionDataTask? {
        lock.withLock {
            guard transfers[id] != nil else { return nil }
            if transfers[id]?.failure == nil { transfers[id]?.failure = failure }
            return transfers[id]?.task
        }
    }

    /// Ends transfer `id` because the import was cancelled.
    func cancel(_ id: Int) {
        lock.withLock { transfers[id]?.task }?.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let failure: MediaReadError? =
            switch status {
            case 200: response.expectedContentLength > limit ? .tooLarge(limit: limit) : nil
            case 404, 410: .notFound
            default: .status(status)
            }
        if let failure {
            fail(dataTask.taskIdentifier, with: failure)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let failure = lock.withLock { () -> MediaReadError? in
            guard transfers[dataTask.taskIdentifier]?.failure == nil else { return nil }
            do {
                try transfers[dataTask.taskIdentifier]?.sink.write(data)
                return nil
            } catch UploadError.tooLarge(let limit) {
                return .tooLarge(limit: limit)
            } catch {
                return .unreadable("cannot be stored: \(error.localizedDescription)")
            }
        }
        if let failure { fail(dataTask.taskIdentifier, with: failure) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let scheme = request.url?.scheme?.lowercased()
        let host = request.url?.host.map { UploadReference.host(of: $0) } ?? ""
        if scheme == "http" || scheme == "https", hosts.contains(host) {
            completionHandler(request)
        } else {
            // Not followed: the redirect itself becomes the answer, which ends the transfer.
            // (Cancelling the task here makes FoundationNetworking trap on the callback.)
            note(.redirected(host: host.isEmpty ? (request.url?.absoluteString ?? "?") : host), of: task.taskIdentifier)
            completionHandler(nil)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = transfer.failure {
            transfer.sink.abandon()
            transfer.continuation.resume(throwing: failure)
        } else if let error {
            transfer.sink.abandon()
            let code = (error as? URLError)?.code
            transfer.continuation.resume(
                throwing: code == .cancelled ? CancellationError()
                    : code == .timedOut ? MediaReadError.timedOut(timeout) : MediaReadError.unreadable(error.localizedDescription))
        } else {
            do {
                transfer.continuation.resume(returning: try transfer.sink.finish())
            } catch {
                transfer.sink.abandon()
                transfer.continuation.resume(throwing: MediaReadError.unreadable("cannot be stored: \(error.localizedDescription)"))
            }
        }
    }
}
