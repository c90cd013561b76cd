import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

/// Records the waits a retry middleware asks for, instead of sleeping.
actor SleepRecorder {
    private(set) var waits: [Duration] = []

    func sleep(_ duration: Duration) {
        waits.append(duration)
    }
}

@Suite("RetryMiddleware")
struct RetryMiddlewareTests {
    private static let policy = RetryPolicy(maxAttempts: 4, baseDelay: .seconds(1), maxDelay: .seconds(10))

    private static func client(_ transport: MockTransport, _ recorder: SleepRecorder, policy: RetryPolicy = policy) -> RESTClient {
        let retry = RetryMiddleware(policy: policy) { await recorder.sleep($0) }
        return RESTClient(transport: transport.with(retry))
    }

    @Test("GET is retried after 503 with exponential back-off until it succeeds")
    func retriesGetOn503() async throws {
        let transport = MockTransport(script: [
            .status(.serviceUnavailable), .status(.serviceUnavailable), .json(Note(id: 1, text: "a")),
        ])
        let recorder = SleepRecorder()

        let note = try await Self.client(transport, recorder).value(RESTRequest(.get, path: "/notes/1"), as: Note.self)

        #expect(note.id == 1)
        #expect(await transport.requests.count == 3)
        #expect(await recorder.waits == [.seconds(1), .seconds(2)])
    }

    @Test("with retriesTransportFailures, PUT and DELETE are retried after a transport failure", arguments: [HTTPRequest.Method.put, .delete])
    func retriesIdempotentOnTransportError(method: HTTPRequest.Method) async throws {
        let transport = MockTransport(script: [.failure(URLError(.networkConnectionLost)), .status(.noContent)])
        let recorder = SleepRecorder()
        var policy = Self.policy
        policy.retriesTransportFailures = true

        try await Self.client(transport, recorder, policy: policy).perform(RESTRequest(method, path: "/notes/1"))

        #expect(await transport.requests.map(\.method) == [method, method])
        #expect(await recorder.waits == [.seconds(1)])
    }

    @Test("even with retriesTransportFailures, a guarded write (If-Match) is not sent again: its lost answer may hide a success")
    func guardedWriteNotRetriedAfterTransportFailure() async throws {
        let transport = MockTransport(script: [.failure(URLError(.networkConnectionLost)), .status(.noContent)])
        let recorder = SleepRecorder()
        var policy = Self.policy
        policy.retriesTransportFailures = true

        await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, recorder, policy: policy)
                .perform(RESTRequest(.put, path: "/notes/1").setting(.ifMatch, to: "\"v1\""))
        }

        #expect(await transport.requests.count == 1)
    }

    @Test("by default a refused connection fails at once: one attempt, no wait")
    func defaultPolicyFailsFastWithoutNetwork() async throws {
        let transport = MockTransport(script: [.failure(URLError(.cannotConnectToHost)), .status(.noContent)])
        let recorder = SleepRecorder()

        let error = await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, recorder, policy: RetryPolicy()).perform(RESTRequest(.get, path: "/notes/1"))
        }

        guard case .transport = try #require(error) else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect(await transport.requests.count == 1)
        #expect(await recorder.waits.isEmpty)
    }

    @Test("by default a 503 is retried twice with back-off")
    func defaultPolicyRetriesBusyServer() async throws {
        let transport = MockTransport(script: Array(repeating: .status(.serviceUnavailable), count: 4))
        let recorder = SleepRecorder()

        await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, recorder, policy: RetryPolicy()).perform(RESTRequest(.get, path: "/notes/1"))
        }

        #expect(await transport.requests.count == 3)
        #expect(await recorder.waits == [.milliseconds(500), .seconds(1)])
    }

    @Test("POST and PATCH are never retried", arguments: [HTTPRequest.Method.post, .patch])
    func neverRetriesUnsafe(method: HTTPRequest.Method) async throws {
        let transport = MockTransport(script: [.status(.serviceUnavailable), .status(.ok)])
        let recorder = SleepRecorder()
        let retryingEverything = RetryPolicy(retriedMethods: [.get, .post, .patch])

        await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, recorder, policy: retryingEverything)
                .perform(RESTRequest(method, path: "/notes"))
        }

        #expect(await transport.requests.count == 1)
        #expect(await recorder.waits.isEmpty)
    }

    @Test("429 waits as long as Retry-After asks")
    func honoursRetryAfter() async throws {
        let transport = MockTransport(script: [
            .status(.tooManyRequests, headerFields: .fields([("Retry-After", "7")])), .status(.ok),
        ])
        let recorder = SleepRecorder()

        try await Self.client(transport, recorder).perform(RESTRequest(.get, path: "/notes"))

        #expect(await recorder.waits == [.seconds(7)])
    }

    @Test("a Retry-After beyond the cap ends the retries with the 429")
    func retryAfterBeyondCap() async throws {
        let transport = MockTransport(script: [
            .status(.tooManyRequests, headerFields: .fields([("Retry-After", "3600")])), .status(.ok),
        ])
        let recorder = SleepRecorder()

        let error = await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, recorder).perform(RESTRequest(.get, path: "/notes"))
        }

        #expect(error?.statusCode == 429)
        #expect(await transport.requests.count == 1)
    }

    @Test("the attempts stop at the cap and the last response is returned")
    func stopsAtMaxAttempts() async throws {
        let transport = MockTransport(script: Array(repeating: .status(.serviceUnavailable), count: 6))
        let recorder = SleepRecorder()

        let error = await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, recorder).perform(RESTRequest(.get, path: "/notes"))
        }

        #expect(error?.statusCode == 503)
        #expect(await transport.requests.count == 4)
        #expect(await recorder.waits == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test("other errors such as 500 and 404 are not retried", arguments: [500, 404])
    func otherStatusesNotRetried(code: Int) async throws {
        let transport = MockTransport(script: [.status(.init(code: code)), .status(.ok)])
        let recorder = SleepRecorder()

        await #expect(throws: RepositoryError.self) {
            try await Self.client(transport, recorder).perform(RESTRequest(.get, path: "/notes"))
        }

        #expect(await transport.requests.count == 1)
    }

    @Test("back-off doubles and is capped")
    func backoffIsCapped() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(5))

        #expect((1...5).map(policy.backoff(beforeRetry:)) == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }
}
