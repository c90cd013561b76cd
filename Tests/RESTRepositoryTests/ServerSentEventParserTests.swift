import Foundation
import Testing
@testable import RESTRepository

@Suite("Reading text/event-stream")
struct ServerSentEventParserTests {
    static let stream = "\u{FEFF}: hello\r\nretry: 2500\r\nid: 1\r\n\r\nid: 2\nevent: announcement.created\ndata: {\"id\":7}\n\n"
        + "event: multi\rdata: one\rdata:two\rdata\r\r: only a comment\n\nid: bad\u{0}id\nretry: 12s\nevent: x\nignored: field\ndata: y\n\n"

    static let expected = [
        ServerSentEvent(id: "1", retry: 2500),
        ServerSentEvent(id: "2", event: "announcement.created", data: "{\"id\":7}"),
        ServerSentEvent(event: "multi", data: "one\ntwo\n"),
        ServerSentEvent(event: "x", data: "y"),
    ]

    @Test("fields, comments, every line ending, a byte order mark, multi-line data, and ids or retries to ignore")
    func wholeStream() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array(Self.stream.utf8)) == Self.expected)
    }

    @Test("bytes arriving one at a time (a CR LF cut in two included) give the same messages")
    func byteByByte() {
        var parser = ServerSentEventParser()
        var messages: [ServerSentEvent] = []
        for byte in Self.stream.utf8 {
            messages += parser.feed([byte])
        }
        #expect(messages == Self.expected)
    }

    @Test("a message not yet ended by a blank line is not returned")
    func unfinished() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("id: 3\nevent: a\ndata: b\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)) == [ServerSentEvent(id: "3", event: "a", data: "b")])
    }
}
