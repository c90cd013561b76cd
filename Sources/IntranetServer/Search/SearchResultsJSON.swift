import IntranetAPI
import NIOCore

/// ``SearchResults`` as JSON, written byte by byte: the same document `JSONEncoder` makes
/// (keys sorted, a group left out when not asked for), without its per-value boxing, which was
/// a twelfth of a search's time. Strings are escaped as JSON requires (quotes, backslashes and
/// control characters); everything else passes through as UTF-8.
enum SearchResultsJSON {
    static func encode(_ results: SearchResults) -> ByteBuffer {
        var out: [UInt8] = []
        out.reserveCapacity(1_024 + 400 * ((results.people?.items.count ?? 0) + (results.announcements?.items.count ?? 0)))
        out.append(UInt8(ascii: "{"))
        var first = true
        if let announcements = results.announcements {
            key("announcements", &out, first: &first)
            group(announcements, &out) { hit($0.id, ("title", $0.title), $0.snippet, &$1) }
        }
        if let people = results.people {
            key("people", &out, first: &first)
            group(people, &out) { hit($0.id, ("name", $0.name), $0.snippet, &$1) }
        }
        out.append(UInt8(ascii: "}"))
        return ByteBuffer(bytes: out)
    }

    /// A result: its id, its snippet, and its one text (`title` or `name`), keys in order.
    private static func hit(_ id: Int, _ text: (key: String, value: String), _ snippet: SearchSnippet, _ out: inout [UInt8]) {
        out += #"{"id":"#.utf8
        number(id, &out)
        var first = false
        if text.key < "snippet" {
            key(text.key, &out, first: &first)
            string(text.value, &out)
        }
        key("snippet", &out, first: &first)
        self.snippet(snippet, &out)
        if text.key > "snippet" {
            key(text.key, &out, first: &first)
            string(text.value, &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func key(_ name: String, _ out: inout [UInt8], first: inout Bool) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        string(name, &out)
        out.append(UInt8(ascii: ":"))
    }

    private static func group<Item>(_ group: SearchGroup<Item>, _ out: inout [UInt8], item: (Item, inout [UInt8]) -> Void) {
        out += #"{"items":["#.utf8
        for (index, element) in group.items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            item(element, &out)
        }
        out += #"],"total":"#.utf8
        number(group.total, &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func snippet(_ snippet: SearchSnippet, _ out: inout [UInt8]) {
        out += #"{"matches":["#.utf8
        for (index, match) in snippet.matches.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            for (position, value) in match.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                number(value, &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out += #"],"text":"#.utf8
        string(snippet.text, &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func number(_ value: Int, _ out: inout [UInt8]) {
        out += String(value).utf8
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string.
    static func string(_ text: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0x00..<0x20: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
