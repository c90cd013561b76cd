import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Live streams and the executable's graceful shutdown.
extension ServerBinaryTests {
    @Test("on SIGTERM every open stream gets a closing event with a retry, and the server stops without waiting out its grace period")
    func streamsEndOnShutdown() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port, log) = try await startServer(["--shutdown-grace-seconds", "30"], in: directory)
        var streams: [RawConnection] = []
        for _ in 0..<5 {
            let stream = try RawConnection(port: port)
            try stream.send(Data("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8))
            streams.append(stream)
        }
        try await Task.sleep(for: .milliseconds(500))

        let signalled = ContinuousClock.now
        #expect(kill(process.processIdentifier, SIGTERM) == 0)
        let open = streams
        let texts = await Self.offThePool { open.map { (try? $0.readToEnd()) ?? "" } }
        let exited = await Self.waitForExit(process, within: 30)
        let took = ContinuousClock.now - signalled
        #expect(exited)
        #expect(took < .seconds(10), "stopped after \(took), with a grace period of 30 s")
        for text in texts {
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
            #expect(text.contains("event: closing\r\n") || text.contains("event: closing\n"), "\(text)")
            #expect(text.contains("{\"reason\":\"shutdown\"}"), "\(text)")
            #expect(text.contains("\nretry: "), "\(text)")
        }
        #expect(process.terminationStatus == 0, "\(log.whole())")
    }
}
