import NIOCore
import Synchronization

/// What one stream has yet to write: a bounded queue between the ``EventHub``, which adds, and
/// the stream's response, which writes as fast as its client reads.
///
/// Past ``limit`` waiting messages the client is too slow: the queue takes one last message
/// saying why (``close(with:)``) and ends, so a slow client never makes the server hold more
/// than `limit` + 1 messages for it. It reconnects with the id of the last event it read, and
/// gets the rest from the log.
///
/// It is read one of two ways: by a task awaiting ``next()`` (a stream the application
/// answers), or from its channel's event loop (``EventStreamHandler``): ``onArrival(_:)`` says
/// when to ``take()`` what waits, and the channel's writability says how much.
final class EventQueue: Sendable {
    private struct State {
        /// Starts with room for two: an idle stream (most of them) keeps this for hours, and
        /// NIO's default of 16 places cost 0.3 KB a stream.
        var waiting = CircularBuffer<ByteBuffer>(initialCapacity: 2)
        var reader: CheckedContinuation<ByteBuffer?, Never>?
        /// Set once the queue ends: no more messages are taken.
        var isEnded = false
        /// Why it ended, for the stream to log and for tests.
        var reason: EventStreamEnd?
        /// Called when a message arrives or the queue ends while no call is pending (a reader
        /// on an event loop; see ``onArrival(_:)``).
        var arrival: (@Sendable () -> Void)?
        /// Set from a call of `arrival` until ``take()`` finds the queue empty.
        var isArrivalPending = false
    }

    /// What ``take()`` finds.
    enum Taken {
        case message(ByteBuffer)
        /// Nothing waits; the reader is called when something does.
        case nothing
        /// The queue ended and everything in it was taken.
        case finished
    }

    /// The most messages kept waiting for a slow client.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds a message, unless the queue ended; a message past the limit ends it instead, as
    /// too slow.
    func push(_ message: ByteBuffer) {
        // The reader to hand it to, and whether this push ended the queue.
        let (reader, endedNow): (CheckedContinuation<ByteBuffer?, Never>?, Bool) = state.withLock { state in
            guard !state.isEnded else { return (nil, false) }
            if let reader = state.reader {
                state.reader = nil
                return (reader, false)
            }
            guard state.waiting.count < limit else {
                state.waiting.append(ServerSentEvents.closing(.tooSlow))
                state.isEnded = true
                state.reason = .tooSlow
                return (nil, true)
            }
            state.waiting.append(message)
            return (nil, false)
        }
        reader?.resume(returning: message)
        if reader == nil { callArrival(evenIfPending: endedNow) }
    }

    /// Ends the queue with a last message saying why, after what already waits.
    func close(with reason: EventStreamEnd) {
        let closing = ServerSentEvents.closing(reason)
        let reader: CheckedContinuation<ByteBuffer?, Never>? = state.withLock { state in
            guard !state.isEnded else { return nil }
            state.isEnded = true
            state.reason = reason
            // A reader waits only on an empty queue: it takes the last message at once.
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            state.waiting.append(closing)
            return nil
        }
        reader?.resume(returning: closing)
        if reader == nil { callArrival(evenIfPending: true) }
    }

    /// Reads the queue without a task: `arrival` is called (on the pushing thread, outside the
    /// queue's lock) when a message arrives, once until ``take()`` next finds nothing waiting,
    /// and when the queue ends (whatever waits: a reader that stopped for a socket that takes
    /// nothing learns that its client is now too slow). The caller then takes what it can write; what it leaves waits, and
    /// counts against ``limit``. Call ``take()`` right after: messages may already wait.
    func onArrival(_ arrival: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.arrival = arrival
            state.isArrivalPending = true
        }
    }

    /// Calls the event-loop reader no more (its stream ended).
    func stopArrivals() {
        state.withLock { $0.arrival = nil }
    }

    /// The oldest waiting message, without waiting.
    func take() -> Taken {
        state.withLock { state in
            if let first = state.waiting.popFirst() { return .message(first) }
            state.isArrivalPending = false
            return state.isEnded ? .finished : .nothing
        }
    }

    /// Calls the event-loop reader, unless a call is pending (and this is not the end).
    private func callArrival(evenIfPending: Bool = false) {
        let arrival: (@Sendable () -> Void)? = state.withLock { state in
            guard let arrival = state.arrival, evenIfPending || !state.isArrivalPending else { return nil }
            state.isArrivalPending = true
            return arrival
        }
        arrival?()
    }

    /// Why the queue ended, once it has.
    var reason: EventStreamEnd? { state.withLock { $0.reason } }

    /// The next message, waiting for one; `nil` once the queue ended and is empty, or when the
    /// task is cancelled.
    func next() async -> ByteBuffer? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ByteBuffer?, Never>) in
                let ready: ByteBuffer?? = state.withLock { state in
                    if let first = state.waiting.popFirst() { return .some(first) }
                    if state.isEnded || Task.isCancelled { return .some(nil) }
                    state.reader = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let reader = state.withLock { state in
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(returning: nil)
        }
    }
}

/// Why a stream ended, as its last message says (`event: closing`).
enum EventStreamEnd: String, Sendable {
    /// The server is shutting down: reconnect after the `retry` the message gives.
    case shutdown
    /// The session was logged out or expired: sign in again.
    case signedOut = "signed-out"
    /// The client read too slowly and more than the limit waited: reconnect, with
    /// `Last-Event-ID`, to get what was dropped.
    case tooSlow = "too-slow"
}
