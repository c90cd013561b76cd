import HTTPTypes

/// When and how long ``RetryMiddleware`` waits before sending a request again.
public struct RetryPolicy: Sendable, Equatable {
    /// The most attempts in all, the first included; 1 disables retries.
    public var maxAttempts: Int
    /// The wait before the first retry; each further retry waits twice as long.
    public var baseDelay: Duration
    /// The longest wait; a `Retry-After` asking for more ends the retries instead.
    public var maxDelay: Duration
    /// The methods safe to send twice. `POST` and `PATCH` are not idempotent and never retried.
    public var retriedMethods: Set<HTTPRequest.Method>
    /// The statuses worth a retry.
    public var retriedStatuses: Set<Int>

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxAttempts: attempts in all (3 by default).
    ///   - baseDelay: the first back-off (0.5 s by default).
    ///   - maxDelay: the longest wait (30 s by default).
    ///   - retriedMethods: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` by default.
    ///   - retriedStatuses: 429 and 503 by default.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        retriedMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options],
        retriedStatuses: Set<Int> = [429, 503]
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retriedMethods = retriedMethods.subtracting([.post, .patch])
        self.retriedStatuses = retriedStatuses
    }

    /// The exponential back-off before retry number `retry` (1 for the first retry), capped at
    /// ``maxDelay``.
    public func backoff(beforeRetry retry: Int) -> Duration {
        var delay = baseDelay
        for _ in 1..<max(retry, 1) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }
}
