import Foundation
import HTTPTypes
import HTTPTypesFoundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Transport`` backed by `URLSession`, on Apple platforms and on Linux.
///
/// Requests are resolved against ``Configuration/baseURL`` keeping its path, so a base of
/// `http://127.0.0.1:8080/api` sends `GET /announcements` to `http://127.0.0.1:8080/api/announcements`.
/// A body is never attached to `GET` or `HEAD`. Cancelling the awaiting task cancels the data task.
public struct URLSessionTransport: Transport {
    /// How a ``URLSessionTransport`` reaches its server.
    public struct Configuration: Sendable {
        /// The URL every request path is appended to; its path is kept.
        public var baseURL: URL
        /// Header fields added to every request that does not already carry them.
        public var defaultHeaderFields: HTTPFields
        /// Seconds to wait for the server before the request fails.
        public var timeout: TimeInterval
        /// The cache policy of every request.
        public var cachePolicy: URLRequest.CachePolicy

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - baseURL: the server's base URL, e.g. `http://127.0.0.1:8080`.
        ///   - defaultHeaderFields: header fields sent with every request.
        ///   - timeout: seconds before a request times out (60 by default).
        ///   - cachePolicy: the `URLRequest` cache policy (the protocol's default by default).
        public init(
            baseURL: URL,
            defaultHeaderFields: HTTPFields = [:],
            timeout: TimeInterval = 60,
            cachePolicy: URLRequest.CachePolicy = .useProtocolCachePolicy
        ) {
            self.baseURL = baseURL
            self.defaultHeaderFields = defaultHeaderFields
            self.timeout = timeout
            self.cachePolicy = cachePolicy
        }
    }

    /// The configuration this transport was made with.
    public let configuration: Configuration
    private let session: URLSession

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - configuration: base URL, default headers, time-out and cache policy.
    ///   - session: the session to send through; by default a session of its own whose
    ///     request time-out and cache policy follow `configuration` (on Linux a request's own
    ///     `timeoutInterval` is not honoured, the session's is).
    public init(configuration: Configuration, session: URLSession? = nil) {
        self.configuration = configuration
        self.session = session ?? URLSessionTransport.makeSession(for: configuration)
    }

    private static func makeSession(for configuration: Configuration) -> URLSession {
        let sessionConfiguration = URLSessionConfiguration.default
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.requestCachePolicy = configuration.cachePolicy
        return URLSession(configuration: sessionConfiguration)
    }

    /// Creates a transport for a base URL with default settings.
    ///
    /// - Parameter baseURL: the server's base URL, e.g. `http://127.0.0.1:8080`.
    public init(baseURL: URL) {
        self.init(configuration: Configuration(baseURL: baseURL))
    }

    /// Sends the request through `URLSession`.
    ///
    /// The body of a request sent by ``RESTClient/upload(_:fromFile:)`` is read from its file as
    /// it leaves; the body of the answer to ``RESTClient/download(_:to:)`` is written to a file
    /// as it arrives (then the returned body is empty, unless the status is not 2xx).
    ///
    /// - Throws: `URLError` when no response arrived; `CancellationError` when the calling
    ///   task was cancelled.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let urlRequest = try makeURLRequest(request, body: body)
        let (data, urlResponse): (Data, URLResponse)
        if let body = urlRequest.httpBody, let source = Self.uploadSource(for: body) {
            (data, urlResponse) = try await URLSessionTransport.upload(urlRequest, from: source, like: session, observer: UploadProgress.observer)
        } else if let target = FileTransfer.responseBody, request.method == .get {
            (data, urlResponse) = try await URLSessionTransport.download(urlRequest, in: session, to: target)
        } else {
            (data, urlResponse) = try await URLSessionTransport.perform(urlRequest, in: session)
        }
        guard let http = urlResponse as? HTTPURLResponse, let response = http.httpResponse else {
            throw URLError(.badServerResponse)
        }
        return (response, data)
    }

    /// Builds the `URLRequest` for a request: the URL, method, headers, time-out, cache policy
    /// and body (never for `GET` or `HEAD`).
    ///
    /// - Throws: `URLError(.badURL)` when the path cannot form a URL.
    public func makeURLRequest(_ request: HTTPRequest, body: Data?) throws -> URLRequest {
        let url = try resolve(request.path ?? "/")
        var urlRequest = URLRequest(
            url: url, cachePolicy: configuration.cachePolicy, timeoutInterval: configuration.timeout)
        urlRequest.httpMethod = request.method.rawValue
        for field in configuration.defaultHeaderFields where request.headerFields[field.name] == nil {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        let mayCarryBody = request.method != .get && request.method != .head
        if mayCarryBody, let body {
            urlRequest.httpBody = body
        }
        return urlRequest
    }

    private func resolve(_ pathAndQuery: String) throws -> URL {
        let base = configuration.baseURL.absoluteString
        let trimmedBase = base.hasSuffix("/") ? String(base.dropLast()) : base
        let path = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        guard let url = URL(string: trimmedBase + path) else {
            throw URLError(.badURL)
        }
        return url
    }

    /// Where an upload's body is read from.
    private enum UploadSource {
        /// Bytes in memory.
        case data(Data)
        /// A file, read as it is sent.
        case file(URL)
    }

    /// How to send `body` when it needs more than a plain data task: from the file bound by
    /// ``RESTClient/upload(_:fromFile:)`` when the body is still that file's content, from
    /// memory when its progress is observed; `nil` otherwise.
    private static func uploadSource(for body: Data) -> UploadSource? {
        if let file = FileTransfer.requestBody,
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? NSNumber,
            size.intValue == body.count
        {
            return .file(file)
        }
        return UploadProgress.observer == nil ? nil : .data(body)
    }

    /// Sends a request with an upload task, through a session of its own with this transport's
    /// settings (upload progress reaches only a session's delegate).
    private static func upload(
        _ request: URLRequest, from source: UploadSource, like session: URLSession, observer: (@Sendable (Int64, Int64) -> Void)?
    ) async throws -> (Data, URLResponse) {
        let delegate = UploadDelegate(observer: observer)
        let configuration = session.configuration
        if let idleTimeout = UploadProgress.idleTimeout {
            configuration.timeoutIntervalForRequest = idleTimeout
        }
        let uploading = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { uploading.finishTasksAndInvalidate() }
        var request = request
        request.httpBody = nil
        let box = DataTaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.setContinuation(continuation)
                switch source {
                case .data(let body): box.start(uploading.uploadTask(with: request, from: body))
                case .file(let file): box.start(uploading.uploadTask(with: request, fromFile: file))
                }
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// Sends a `GET` with a download task: URLSession writes the body to a temporary file,
    /// which a 2xx answer hands to `target`; the body of any other answer (a problem, a `304`)
    /// comes back in memory.
    private static func download(
        _ request: URLRequest, in session: URLSession, to target: DownloadTarget
    ) async throws -> (Data, URLResponse) {
        let box = DataTaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.downloadTask(with: request) { location, response, error in
                    if let error {
                        let cancelled = (error as? URLError)?.code == .cancelled
                        continuation.resume(throwing: cancelled ? CancellationError() : error)
                        return
                    }
                    guard let response else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                        return
                    }
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    if (200..<300).contains(status), let location {
                        target.take(location)
                        continuation.resume(returning: (Data(), response))
                    } else {
                        let body = location.flatMap { try? Data(contentsOf: $0) } ?? Data()
                        continuation.resume(returning: (body, response))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }

    private static func perform(
        _ request: URLRequest, in session: URLSession
    ) async throws -> (Data, URLResponse) {
        let box = DataTaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let cancelled = (error as? URLError)?.code == .cancelled
                        continuation.resume(throwing: cancelled ? CancellationError() : error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Collects an upload's answer and reports its progress to the observer, if any.
private final class UploadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let observer: (@Sendable (Int64, Int64) -> Void)?
    private let lock = NSLock()
    private var received = Data()
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?

    init(observer: (@Sendable (Int64, Int64) -> Void)?) {
        self.observer = observer
    }

    func setContinuation(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        observer?(totalBytesSent, totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data) = lock.withLock { () -> (CheckedContinuation<(Data, URLResponse), any Error>?, Data) in
            defer { self.continuation = nil }
            return (self.continuation, received)
        }
        if let error {
            let cancelled = (error as? URLError)?.code == .cancelled
            continuation?.resume(throwing: cancelled ? CancellationError() : error)
        } else if let response = task.response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}
