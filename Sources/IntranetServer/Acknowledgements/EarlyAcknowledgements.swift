import FluentKit
import Foundation
import IntranetAPI

/// The acknowledgements the event loop answers (``AcknowledgementAnswerHandler``): gathered as
/// they come, each batch's callers found at once (the sessions not remembered in one query, each
/// caller's view as every read finds it), then written in one transaction of the
/// ``AcknowledgementStore``. Nothing here needs a task per acknowledgement: the event loop hands
/// a request over and is called back with its answer.
///
/// Only an acknowledgement given (now or before) is answered early; for any other outcome — no
/// such session, an announcement hidden, not asking or in another round, a failure — the
/// handler hands the request to the application, which decides afresh and answers with its own
/// errors. Nothing was written for those, so deciding twice changes nothing.
final class EarlyAcknowledgements: Sendable {
    /// An acknowledgement asked for as it came off the socket.
    struct Request: Sendable {
        var tokenHash: String
        var announcementID: Int
        var round: Int?
    }

    /// What the event loop answers.
    enum Answer: Sendable, Equatable {
        /// Given, now or before, by account `userID`.
        case given(AcknowledgementReceipt, userID: Int)
        /// The application answers.
        case toApplication
    }

    private let batches: AcknowledgementBatches<Request, Answer>

    init(
        store: AcknowledgementStore, sessions: SessionRememberingAccountRepository, cache: ResponseCache,
        now: @escaping @Sendable () -> Date
    ) {
        batches = AcknowledgementBatches { requests in
            try await Self.write(requests, store: store, sessions: sessions, cache: cache, now: now)
        }
    }

    /// What is called with a request's answer.
    typealias Completion = @Sendable (Result<Answer, any Error>) -> Void

    /// Puts `request` in the next batch; `completion` is called once, from the batch's task.
    func submit(_ request: Request, completion: @escaping Completion) {
        batches.submit(request, completion: completion)
    }

    private static func write(
        _ requests: [Request], store: AcknowledgementStore, sessions: SessionRememberingAccountRepository, cache: ResponseCache,
        now: @Sendable () -> Date
    ) async throws -> [Answer] {
        let found = try await sessions.sessions(tokenHashes: requests.map(\.tokenHash), now: now())
        var jobs: [AcknowledgementStore.Job] = []
        // For each request, its job's place in `jobs`; `nil`: no such session.
        var places: [Int?] = []
        for request in requests {
            guard let session = found[request.tokenHash] else {
                places.append(nil)
                continue
            }
            places.append(jobs.count)
            jobs.append(
                try await AcknowledgementController.job(
                    request.announcementID, by: session.user.api, round: request.round, cache: cache, database: store.database))
        }
        let outcomes = jobs.isEmpty ? [] : try await store.write(jobs)
        return places.map { place in
            guard let place, case .given(let receipt) = outcomes[place] else { return .toApplication }
            return .given(receipt, userID: jobs[place].userID)
        }
    }
}
