import Foundation

/// One message of a Server-Sent Events stream (`text/event-stream`), as the format defines
/// its fields.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `id` field, when the message had one: the stream's new resume point (sent back as
    /// `Last-Event-ID` on reconnecting), even for a message with no data.
    public var id: String?
    /// The `event` field (the event's type), when present.
    public var event: String?
    /// The `data` lines joined with line feeds; `nil` when there were none.
    public var data: String?
    /// The `retry` field: the reconnection delay the server asks for, in milliseconds.
    public var retry: Int?

    /// Creates a message.
    public init(id: String? = nil, event: String? = nil, data: String? = nil, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}

/// Cuts a `text/event-stream` body into ``ServerSentEvent``s as its bytes arrive, by the
/// format's rules: lines end in CR LF, LF or CR; a blank line ends a message; a line starting
/// with `:` is a comment; `field: value` loses one space after the colon; a field with no colon
/// has an empty value; an `id` containing NUL is ignored; a `retry` that is not all digits is
/// ignored; unknown fields are ignored. Messages with no field at all (comments only) are not
/// returned.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var current = ServerSentEvent()
    private var hasField = false
    private var lastWasCR = false
    private var isFirstLine = true

    /// Creates a parser at the start of a stream.
    public init() {}

    /// Feeds bytes; returns the messages they completed.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var messages: [ServerSentEvent] = []
        for byte in bytes {
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }  // the LF of a CR LF
            }
            switch byte {
            case 0x0D:
                lastWasCR = true
                endLine(into: &messages)
            case 0x0A:
                endLine(into: &messages)
            default:
                line.append(byte)
            }
        }
        return messages
    }

    private mutating func endLine(into messages: inout [ServerSentEvent]) {
        var text = line
        line.removeAll(keepingCapacity: true)
        if isFirstLine {
            isFirstLine = false
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }  // a byte order mark
        }
        guard !text.isEmpty else {
            if hasField { messages.append(current) }
            current = ServerSentEvent()
            hasField = false
            return
        }
        if text.first == UInt8(ascii: ":") { return }
        let colon = text.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: text[..<(colon ?? text.endIndex)], as: UTF8.self)
        var value = colon.map { Array(text[($0 + 1)...]) } ?? []
        if value.first == UInt8(ascii: " ") { value.removeFirst() }
        let string = String(decoding: value, as: UTF8.self)
        switch name {
        case "id":
            guard !value.contains(0) else { return }
            current.id = string
        case "event":
            current.event = string
        case "data":
            current.data = current.data.map { $0 + "\n" + string } ?? string
        case "retry":
            guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int(string) else { return }
            current.retry = milliseconds
        default:
            return
        }
        hasField = true
    }
}
