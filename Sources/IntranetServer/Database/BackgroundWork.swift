import Synchronization

/// Database work a service does on its own, not for a request, which closing the database
/// waits for: a connection still leased when FluentKit's pools shut down is let go unclosed,
/// and SQLiteNIO stops the process on that (an assertion), which a test server cancelled in the
/// middle of such work showed.
final class BackgroundWork: Sendable {
    private struct State {
        var running = 0
        var isClosed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Whether ``close()`` was called: long work should stop at its next step.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Runs `work`, unless ``close()`` was called.
    ///
    /// - Returns: what `work` returned, or `nil` when closed.
    func run<T>(_ work: () async throws -> T) async rethrows -> T? {
        let isAllowed = state.withLock { state in
            guard !state.isClosed else { return false }
            state.running += 1
            return true
        }
        guard isAllowed else { return nil }
        defer { finish() }
        return try await work()
    }

    /// Refuses new work, then waits until the work running has ended.
    func close() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state in
                state.isClosed = true
                guard state.running > 0 else { return true }
                state.waiters.append(waiter)
                return false
            }
            if isIdle { waiter.resume() }
        }
    }

    private func finish() {
        let waiters = state.withLock { state in
            state.running -= 1
            guard state.running == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
