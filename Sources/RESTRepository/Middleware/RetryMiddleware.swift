import Foundation
import HTTPTypes

/// Sends idempotent requests again after a retryable status (503, 429) or, when the policy
/// says so, a transport failure, waiting with exponential back-off or as long as `Retry-After`
/// asks.
///
/// The clock is injected, so tests run without sleeping.
public struct RetryMiddleware: TransportMiddleware {
    /// The retry policy.
    public let policy: RetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - policy: when to retry and how long to wait.
    ///   - sleep: waits for a duration; throws when the task is cancelled.
    public init(
        policy: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.policy = policy
        self.sleep = sleep
    }

    /// Creates the middleware sleeping on a clock (the continuous clock by default).
    ///
    /// - Parameters:
    ///   - policy: when to retry and how long to wait.
    ///   - clock: the clock to sleep on.
    public init(policy: RetryPolicy = RetryPolicy(), clock: some Clock<Duration> = ContinuousClock()) {
        self.init(policy: policy) { delay in
            try await clock.sleep(for: delay)
        }
    }

    /// Sends the request, retrying while the policy allows.
    ///
    /// - Returns: the first response that is not retried (a final 503 or 429 included).
    /// - Throws: the last transport error, or `CancellationError` when cancelled while waiting.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        next: @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        guard policy.retriedMethods.contains(request.method) else {
            return try await next(request, body)
        }
        var attempt = 1
        while true {
            let delay: Duration
            do {
                let (response, data) = try await next(request, body)
                guard attempt < policy.maxAttempts,
                      policy.retriedStatuses.contains(response.status.code),
                      let wait = waitAfter(response, retry: attempt)
                else { return (response, data) }
                delay = wait
            } catch {
                guard attempt < policy.maxAttempts, isRetryable(error, request) else { throw error }
                delay = policy.backoff(beforeRetry: attempt)
            }
            try await sleep(delay)
            attempt += 1
        }
    }

    /// The wait before retrying after `response`, or `nil` when `Retry-After` asks for longer
    /// than the policy allows.
    private func waitAfter(_ response: HTTPResponse, retry: Int) -> Duration? {
        guard let value = response.headerFields[.retryAfter] else {
            return policy.backoff(beforeRetry: retry)
        }
        guard let asked = RetryAfter.parse(value) else {
            return policy.backoff(beforeRetry: retry)
        }
        return asked <= policy.maxDelay ? asked : nil
    }

    /// A guarded write (`If-Match`) whose answer was lost may well have succeeded: sent again it
    /// would meet 412 against its own change, so it is never retried after a transport failure.
    private func isRetryable(_ error: any Error, _ request: HTTPRequest) -> Bool {
        policy.retriesTransportFailures && request.headerFields[.ifMatch] == nil
            && !(error is CancellationError) && !Task.isCancelled
    }
}
