import Foundation
import NIOCore

/// The messages of a live stream, written as the Server-Sent Events format says
/// (`text/event-stream`): fields `id`, `event`, `data` and `retry`, a blank line ending each.
enum ServerSentEvents {
    /// What an event's `data` line holds: the subject's id and, unless it was deleted, the tag a
    /// 2.0 detail read of it answers the stream's reader.
    struct Payload: Hashable, Sendable {
        var id: Int
        var etag: String?

        /// `{"id":…,"etag":…}`, the id first; the tag as a JSON string.
        var json: String {
            guard let etag else { return "{\"id\":\(id)}" }
            let escaped = etag.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                case _ where scalar.value < 0x20: String(format: "\\u%04x", scalar.value)
                default: String(scalar)
                }
            }.joined()
            return "{\"id\":\(id),\"etag\":\"\(escaped)\"}"
        }
    }

    /// An event: `id`, `event`, and its payload as one line of JSON (`{}` for none).
    static func event(id: Int64, name: String, payload: Payload?) -> ByteBuffer {
        ByteBuffer(string: "id: \(id)\nevent: \(name)\ndata: \(payload?.json ?? "{}")\n\n")
    }

    /// Moves the client's resume point (its `Last-Event-ID`) to `id` without an event: a message
    /// with an id and no data dispatches nothing, but the id counts.
    static func position(_ id: Int64) -> ByteBuffer {
        ByteBuffer(string: "id: \(id)\n\n")
    }

    /// The first message: how long to wait before reconnecting (`retry`, in milliseconds, with
    /// jitter so that clients cut off together do not all come back at once), and where the
    /// stream starts.
    static func opening(retry milliseconds: Int, position id: Int64) -> ByteBuffer {
        ByteBuffer(string: ": intranet events\nretry: \(milliseconds)\nid: \(id)\n\n")
    }

    /// A comment that keeps proxies from closing an idle stream; with `position`, it moves the
    /// resume point past entries the reader was not shown.
    static func heartbeat(position id: Int64?) -> ByteBuffer {
        ByteBuffer(string: id.map { ": keep-alive\nid: \($0)\n\n" } ?? ": keep-alive\n\n")
    }

    /// The last message of a stream the server ends: `event: closing` with no id (the resume
    /// point stays where it was) and the reason; on shutdown, a `retry` with jitter.
    static func closing(_ reason: EventStreamEnd) -> ByteBuffer {
        let retry = reason == .shutdown ? "retry: \(Int.random(in: 1_000...5_000))\n" : ""
        return ByteBuffer(string: "event: closing\n\(retry)data: {\"reason\":\"\(reason.rawValue)\"}\n\n")
    }
}
