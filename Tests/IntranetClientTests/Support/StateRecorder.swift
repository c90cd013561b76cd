import IntranetClient

/// Collects what a sign-in state stream yields, on a task of its own, so tests can wait for
/// an expected sequence with a time limit instead of awaiting a state that may never come.
actor StateRecorder {
    private(set) var states: [SessionState] = []
    private var task: Task<Void, Never>?

    /// Starts recording `stream`.
    static func recording(_ stream: AsyncStream<SessionState>) async -> StateRecorder {
        let recorder = StateRecorder()
        await recorder.start(stream)
        return recorder
    }

    private func start(_ stream: AsyncStream<SessionState>) {
        task = Task { [weak self] in
            for await state in stream {
                await self?.append(state)
            }
        }
    }

    private func append(_ state: SessionState) {
        states.append(state)
    }

    /// Whether exactly `expected` has been recorded, waiting up to about two seconds for it.
    func received(_ expected: [SessionState]) async -> Bool {
        for _ in 0..<400 where states != expected {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return states == expected
    }

    /// Stops listening, which ends the subscription.
    func stop() {
        task?.cancel()
    }
}
