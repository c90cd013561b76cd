import Synchronization

/// Group commit for acknowledgements: those that arrive while one transaction runs wait for it
/// and go together in the next (at most ``maxBatch``), so a burst — a whole company confirming a
/// notice — costs one transaction and one revision per batch instead of one each. Each caller
/// is answered only once its batch committed; when a batch fails, every one of its callers gets
/// the error (nothing of it was committed, or the pipeline let go of what it remembered).
final class AcknowledgementBatches: Sendable {
    /// One acknowledgement asked for.
    struct Job: Sendable {
        var announcementID: Int
        var userID: Int
        var visibility: Visibility
        var expectedRound: Int?
        var audience: Visibility?
    }

    typealias Writer = @Sendable ([Job]) async throws -> [AcknowledgementStore.Outcome]

    /// Most acknowledgements in one transaction.
    static let maxBatch = 256
    /// How long the first acknowledgement after a quiet moment waits for others to join it.
    static let gathering = Duration.milliseconds(4)

    private struct Waiting {
        var job: Job
        var continuation: CheckedContinuation<AcknowledgementStore.Outcome, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var isWriting = false
    }

    private let state = Mutex(State())

    /// Runs `job` in the next batch `write` makes; answers with what became of it.
    func run(_ job: Job, write: @escaping Writer) async throws -> AcknowledgementStore.Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let startsWriter = state.withLock { state in
                state.waiting.append(Waiting(job: job, continuation: continuation))
                guard !state.isWriting else { return false }
                state.isWriting = true
                return true
            }
            if startsWriter {
                Task {
                    // Those arriving in the next moment join the first batch too: paced
                    // arrivals (a thousand a second, one at a time) share transactions as a
                    // burst does.
                    try? await Task.sleep(for: Self.gathering)
                    await self.drain(write)
                }
            }
        }
    }

    /// Writes batches until no one waits.
    private func drain(_ write: Writer) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let taken = Array(state.waiting.prefix(Self.maxBatch))
                state.waiting.removeFirst(taken.count)
                if taken.isEmpty { state.isWriting = false }
                return taken
            }
            guard !batch.isEmpty else { return }
            do {
                let outcomes = try await write(batch.map(\.job))
                for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(returning: outcome) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}
