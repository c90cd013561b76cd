import Foundation
import HTTPTypes
import RESTRepository
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's live stream of changes as an `AsyncSequence` of ``LiveChange``, on Apple
/// platforms and Linux alike (``IntranetClient/changes(resumingAfter:reconnection:)``).
///
/// It stays connected for as long as it is iterated: when the connection drops or the server
/// restarts, it reconnects by itself — after the delay the server asked for, then doubling up
/// to ``Reconnection/maximumDelay`` while the server stays away, each delay with random jitter —
/// and resumes after the last event it received (`Last-Event-ID`), so no change is missed or
/// repeated; the server says ``LiveChange/Kind/reset`` when it cannot resume. Iteration ends
/// with `RepositoryError.unauthorized` when the session ends (logout, expiry), with the
/// server's error for any other refusal, and quietly when the iterating task is cancelled.
public struct LiveChanges: AsyncSequence, Sendable {
    public typealias Element = LiveChange

    /// How reconnection waits.
    public struct Reconnection: Sendable {
        /// The first wait, when the server named none.
        public var initialDelay: Duration = .seconds(1)
        /// The longest wait between two attempts.
        public var maximumDelay: Duration = .seconds(30)

        /// Creates reconnection settings.
        public init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30)) {
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }
    }

    /// Builds the request of each connection, authenticated and signed as the client's others.
    typealias Prepare = @Sendable (_ lastEventID: String?) async throws -> URLRequest

    let prepare: Prepare
    let resumingAfter: String?
    let reconnection: Reconnection

    public func makeAsyncIterator() -> AsyncThrowingStream<LiveChange, any Error>.Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LiveChange.self)
        let task = Task { [prepare, resumingAfter, reconnection] in
            var connection = Connection(prepare: prepare, lastEventID: resumingAfter, reconnection: reconnection)
            do {
                try await connection.run { continuation.yield($0) }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream.makeAsyncIterator()
    }
}

/// The reconnecting loop behind ``LiveChanges``.
private struct Connection {
    let prepare: LiveChanges.Prepare
    var lastEventID: String?
    let reconnection: LiveChanges.Reconnection
    /// The wait the server asked for (`retry:`).
    var serverDelay: Duration?

    init(prepare: @escaping LiveChanges.Prepare, lastEventID: String?, reconnection: LiveChanges.Reconnection) {
        self.prepare = prepare
        self.lastEventID = lastEventID
        self.reconnection = reconnection
    }

    /// Why one connection ended.
    private enum Ending {
        /// Reconnect after the usual wait.
        case dropped
        /// Reconnect at once (the server cut a slow reader).
        case immediately
    }

    mutating func run(_ yield: (LiveChange) -> Void) async throws {
        var failures = 0
        while true {
            try Task.checkCancellation()
            let ending: Ending
            do {
                let (result, received) = try await connectOnce(yield)
                ending = result
                if received { failures = 0 }
            } catch let error as RepositoryError {
                switch error {
                case .server, .rateLimited, .transport: ending = .dropped
                default: throw error
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if Task.isCancelled { throw CancellationError() }
                ending = .dropped
            }
            guard ending == .dropped else { continue }
            failures += 1
            try await Task.sleep(for: delay(after: failures))
        }
    }

    /// The wait before attempt `failures` + 1: the server's `retry`, then doubling, each with up
    /// to a quarter more at random.
    private func delay(after failures: Int) -> Duration {
        let base = serverDelay ?? reconnection.initialDelay
        let doubled = base * Int(1 << min(failures - 1, 10))
        let capped = min(doubled, reconnection.maximumDelay)
        return capped + capped * Double.random(in: 0...0.25)
    }

    /// One connection, until it ends; `received` tells whether the server answered 200.
    private mutating func connectOnce(_ yield: (LiveChange) -> Void) async throws -> (Ending, received: Bool) {
        let request = try await prepare(lastEventID)
        let configuration = URLSessionConfiguration.default
        // The server sends a comment every 15 s: a minute of silence is a dead connection.
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = .infinity
        let connection: EventStreamConnection
        do {
            connection = try await EventStreamConnection.open(request, configuration: configuration)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw RepositoryError.transport(error)
        }
        defer { connection.cancel() }
        guard connection.response.status == .ok else {
            var body = Data()
            for try await chunk in connection.bytes where body.count < 65_536 { body.append(chunk) }
            throw RepositoryError(response: connection.response, body: body)
                ?? RepositoryError.unexpectedStatus(.init(status: connection.response.status, headerFields: connection.response.headerFields, body: body))
        }
        var parser = ServerSentEventParser()
        do {
            for try await chunk in connection.bytes {
                for message in parser.feed(chunk) {
                    if let id = message.id { lastEventID = id }
                    if let retry = message.retry { serverDelay = .milliseconds(retry) }
                    guard let event = message.event else { continue }
                    if event == "closing" {
                        let reason = Self.reason(of: message)
                        if reason == "signed-out" {
                            throw RepositoryError.unauthorized(.init(
                                status: .unauthorized, headerFields: [:], body: Data(#"{"detail":"The session ended."}"#.utf8)))
                        }
                        return (reason == "too-slow" ? .immediately : .dropped, true)
                    }
                    if let change = Self.change(from: message) { yield(change) }
                }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as RepositoryError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
        }
        return (.dropped, true)
    }

    /// The change an event describes; `nil` for one of a kind this SDK does not know (a newer
    /// server's), which is skipped.
    static func change(from message: ServerSentEvent) -> LiveChange? {
        guard let name = message.event, let kind = LiveChange.Kind(rawValue: name) else { return nil }
        let object = message.data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        return LiveChange(kind: kind, id: object["id"] as? Int, etag: object["etag"] as? String, eventID: message.id)
    }

    static func reason(of message: ServerSentEvent) -> String? {
        let object = message.data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return object?["reason"] as? String
    }
}
