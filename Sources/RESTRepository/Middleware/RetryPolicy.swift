import HTTPTypes

/// When and how long ``RetryMiddleware`` waits before sending a request again.
///
/// The default suits an interactive app: a server that says "busy" (503) or "slow down" (429)
/// gets up to two more tries after a short back-off, while a request that got no answer at all
/// (connection refused, no network, a time-out) fails at once, so a screen can say "offline"
/// without making its user wait. Set ``retriesTransportFailures`` for a background job that
/// would rather wait out a flaky network.
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
    /// Whether a request that got no response (refused, unreachable, timed out) is sent
    /// again; `false` by default, so a dead network fails fast. Even when `true`, a request
    /// carrying `If-Match` is not: its lost answer may hide a success that a second attempt
    /// would report as a conflict with itself. (An unguarded `DELETE` retried this way may
    /// answer 404 for the same reason.)
    public var retriesTransportFailures: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxAttempts: attempts in all (3 by default).
    ///   - baseDelay: the first back-off (0.5 s by default).
    ///   - maxDelay: the longest wait (30 s by default).
    ///   - retriedMethods: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` by default.
    ///   - retriedStatuses: 429 and 503 by default.
    ///   - retriesTransportFailures: whether to retry when no response came (`false` by default).
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        retriedMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options],
        retriedStatuses: Set<Int> = [429, 503],
        retriesTransportFailures: Bool = false
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retriedMethods = retriedMethods.subtracting([.post, .patch])
        self.retriedStatuses = retriedStatuses
        self.retriesTransportFailures = retriesTransportFailures
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
