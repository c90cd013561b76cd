import NIOCore
import Synchronization
import Testing
@testable import IntranetServer

@Suite("A live stream's queue")
struct EventQueueTests {
    @Test("a client that reads too slowly gets what fitted, then one closing message, and nothing more is kept")
    func slowClientsAreCut() async throws {
        let queue = EventQueue(limit: 3)
        for number in 1...10 {
            queue.push(ServerSentEvents.event(id: Int64(number), name: "announcement.changed", payload: .init(id: number, etag: "\"\(number).1.v2\"")))
        }
        var received: [String] = []
        while let message = await queue.next() {
            received.append(String(buffer: message))
        }
        #expect(received.count == 4, "\(received)")
        #expect(received.prefix(3).allSatisfy { $0.hasPrefix("id: ") })
        #expect(received.last == "event: closing\ndata: {\"reason\":\"too-slow\"}\n\n")
        #expect(queue.reason == .tooSlow)
        queue.push(ServerSentEvents.position(99))
        #expect(await queue.next() == nil, "an ended queue takes nothing")
    }

    @Test("a waiting reader gets each message as it comes, then the closing one, and a cancelled reader stops waiting")
    func readersWait() async throws {
        let queue = EventQueue(limit: 8)
        let reader = Task { () -> [String] in
            var received: [String] = []
            while let message = await queue.next() { received.append(String(buffer: message)) }
            return received
        }
        try await Task.sleep(for: .milliseconds(50))
        queue.push(ServerSentEvents.position(7))
        queue.close(with: .shutdown)
        let received = await reader.value
        #expect(received.first == "id: 7\n\n")
        #expect(received.count == 2)
        #expect(received.last?.hasPrefix("event: closing\nretry: ") == true)
        #expect(received.last?.hasSuffix("data: {\"reason\":\"shutdown\"}\n\n") == true)

        let idle = EventQueue(limit: 8)
        let waiting = Task { await idle.next() }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        #expect(await waiting.value == nil)
    }

    @Test("a reader on an event loop is called once for what arrives until it finds the queue empty, and told when it ended")
    func eventLoopReaders() {
        let queue = EventQueue(limit: 8)
        let calls = Mutex(0)
        queue.push(ServerSentEvents.position(1))
        queue.onArrival { calls.withLock { $0 += 1 } }
        queue.push(ServerSentEvents.position(2))
        #expect(calls.withLock { $0 } == 0, "a message already waited when it attached: it takes at once")
        guard case .message(let first) = queue.take(), case .message = queue.take(), case .nothing = queue.take() else {
            Issue.record("not two messages, then nothing")
            return
        }
        #expect(String(buffer: first) == "id: 1\n\n")
        queue.push(ServerSentEvents.position(3))
        queue.push(ServerSentEvents.position(4))
        #expect(calls.withLock { $0 } == 1, "one call for both")
        _ = queue.take()
        _ = queue.take()
        guard case .nothing = queue.take() else {
            Issue.record("a message left after two were taken")
            return
        }
        queue.close(with: .signedOut)
        #expect(calls.withLock { $0 } == 2)
        guard case .message(let closing) = queue.take(), case .finished = queue.take() else {
            Issue.record("no closing message, then the end")
            return
        }
        #expect(String(buffer: closing) == "event: closing\ndata: {\"reason\":\"signed-out\"}\n\n")
    }

    @Test("an event's data is one line of JSON with the id first and the tag escaped")
    func payloads() {
        #expect(ServerSentEvents.Payload(id: 5, etag: "\"5.2.v2e\"").json == #"{"id":5,"etag":"\"5.2.v2e\""}"#)
        #expect(ServerSentEvents.Payload(id: 5).json == #"{"id":5}"#)
        #expect(String(buffer: ServerSentEvents.event(id: 12, name: "reset", payload: nil)) == "id: 12\nevent: reset\ndata: {}\n\n")
    }
}
