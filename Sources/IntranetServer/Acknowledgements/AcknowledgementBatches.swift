import Synchronization

/// Group commit: jobs that arrive while one batch is written wait for it and go together in the
/// next (at most ``maxBatch``), so a burst — a whole company confirming a notice — costs one
/// transaction per batch instead of one each. Each caller is answered only once its batch was
/// written; when a batch fails, every one of its callers gets the error.
///
/// Callers wait either as tasks (``run(_:)``) or, on an event loop that must not wait, with a
/// completion called from the writer's task (``submit(_:completion:)``): no task per job.
final class AcknowledgementBatches<Job: Sendable, Outcome: Sendable>: Sendable {
    /// Writes a batch, answering with what became of each job, in order.
    typealias Writer = @Sendable ([Job]) async throws -> [Outcome]
    typealias Completion = @Sendable (Result<Outcome, any Error>) -> Void

    /// Most jobs in one batch.
    static var maxBatch: Int { 256 }
    /// How long the first job after a quiet moment waits for others to join it (10 ms was
    /// tried: no cheaper per acknowledgement, and later).
    static var gathering: Duration { .milliseconds(4) }

    private struct State {
        var waiting: [(job: Job, completion: Completion)] = []
        var isWriting = false
    }

    private let state = Mutex(State())
    private let write: Writer

    init(write: @escaping Writer) {
        self.write = write
    }

    /// Runs `job` in the next batch; answers with what became of it.
    func run(_ job: Job) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            submit(job) { continuation.resume(with: $0) }
        }
    }

    /// Puts `job` in the next batch; `completion` is called once with what became of it, on the
    /// writer's task.
    func submit(_ job: Job, completion: @escaping Completion) {
        let startsWriter = state.withLock { state in
            state.waiting.append((job, completion))
            guard !state.isWriting else { return false }
            state.isWriting = true
            return true
        }
        if startsWriter {
            Task {
                // Those arriving in the next moment join the first batch too: paced arrivals
                // (a thousand a second, one at a time) share transactions as a burst does.
                try? await Task.sleep(for: Self.gathering)
                await self.drain()
            }
        }
    }

    /// Writes batches until no one waits.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [(job: Job, completion: Completion)] in
                let taken = Array(state.waiting.prefix(Self.maxBatch))
                state.waiting.removeFirst(taken.count)
                if taken.isEmpty { state.isWriting = false }
                return taken
            }
            guard !batch.isEmpty else { return }
            do {
                let outcomes = try await write(batch.map(\.job))
                // Every caller is answered: one left waiting would hold its connection.
                guard outcomes.count == batch.count else { throw BatchWriterMiscounted(jobs: batch.count, outcomes: outcomes.count) }
                for (waiting, outcome) in zip(batch, outcomes) { waiting.completion(.success(outcome)) }
            } catch {
                for waiting in batch { waiting.completion(.failure(error)) }
            }
        }
    }
}

/// A batch's writer answered for another number of jobs than it was given (a defect).
struct BatchWriterMiscounted: Error {
    var jobs: Int
    var outcomes: Int
}
