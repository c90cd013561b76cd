import Foundation
import HTTPTypes
import HTTPTypesFoundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One open `text/event-stream` answer, read as its bytes arrive — through `URLSession`'s
/// delegate, since `URLSession` has no streaming read of its own on Linux.
///
/// ``open(_:configuration:)`` returns once the head arrived; the body's bytes follow in
/// ``bytes`` until the server ends the answer, the connection fails, or ``cancel()``.
public final class EventStreamConnection: Sendable {
    /// The answer's head.
    public let response: HTTPResponse
    /// The body as it arrives; ends when the answer ends, throws when the connection fails.
    public let bytes: AsyncThrowingStream<Data, any Error>
    private let session: URLSession
    private let task: URLSessionDataTask

    private init(response: HTTPResponse, bytes: AsyncThrowingStream<Data, any Error>, session: URLSession, task: URLSessionDataTask) {
        self.response = response
        self.bytes = bytes
        self.session = session
        self.task = task
    }

    deinit {
        task.cancel()
        session.invalidateAndCancel()
    }

    /// Sends `request` and waits for the head of the answer.
    ///
    /// - Parameters:
    ///   - request: the request, headers and all (a `GET`).
    ///   - configuration: the session settings to use; the request time-out applies to the
    ///     wait for each byte, so keep it above the server's heartbeat.
    /// - Throws: `URLError` when no answer came; `CancellationError` when the calling task was
    ///   cancelled.
    public static func open(_ request: URLRequest, configuration: URLSessionConfiguration = .default) async throws -> EventStreamConnection {
        let delegate = StreamDelegate()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        let box = DataTaskBox()
        do {
            let head: HTTPURLResponse = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.onHead = continuation
                    box.start(task)
                }
            } onCancel: {
                box.cancel()
            }
            guard let response = head.httpResponse else { throw URLError(.badServerResponse) }
            return EventStreamConnection(response: response, bytes: delegate.body, session: session, task: task)
        } catch {
            session.invalidateAndCancel()
            throw error
        }
    }

    /// Closes the connection; ``bytes`` ends.
    public func cancel() {
        task.cancel()
    }
}

/// Hands the head to the opener, then each piece of the body to the stream.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var head: CheckedContinuation<HTTPURLResponse, any Error>?
    let body: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation

    override init() {
        (body, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        super.init()
    }

    var onHead: CheckedContinuation<HTTPURLResponse, any Error>? {
        get { lock.withLock { head } }
        set { lock.withLock { head = newValue } }
    }

    private func takeHead() -> CheckedContinuation<HTTPURLResponse, any Error>? {
        lock.withLock {
            defer { head = nil }
            return head
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse {
            takeHead()?.resume(returning: http)
        } else {
            takeHead()?.resume(throwing: URLError(.badServerResponse))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            let cancelled = (error as? URLError)?.code == .cancelled
            takeHead()?.resume(throwing: cancelled ? CancellationError() : error)
            continuation.finish(throwing: cancelled ? CancellationError() : error)
        } else {
            takeHead()?.resume(throwing: URLError(.badServerResponse))
            continuation.finish()
        }
        session.finishTasksAndInvalidate()
    }
}
