import Testing
@testable import IntranetServer

@Suite("Strict JSON parsing of request bodies")
struct StrictJSONParserTests {
    @Test("valid documents parse to the values they spell", arguments: [
        (#"{"title":"x","body":null}"#, JSONValue.object(["title": .string("x"), "body": .null])),
        (#" [1, -2.5e3, 0, true, false] "#, .array([.number(1), .number(-2500), .number(0), .bool(true), .bool(false)])),
        (#""\u00e9\ud83c\udf89\n\"\/""#, .string("é🎉\n\"/")),
        (#"{}"#, .object([:])),
        ("\"公告\"", .string("公告")),
    ])
    func valid(text: String, expected: JSONValue) throws {
        #expect(try StrictJSONParser.parse(Array(text.utf8)) == expected)
    }

    @Test("invalid documents are refused", arguments: [
        #"{"title":"x",}"#, "[1,]", "[1 2]", #"{"a" 1}"#, #"{a:1}"#, "01", "1.", ".5", "-", "1e", "+1", "NaN", "tru",
        #""\x""#, #""\ud800""#, #""\udc00""#, "\"a\u{01}b\"", #""open"#, "{} {}", "", "   ", "1e999",
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
    ])
    func invalid(text: String) {
        #expect(throws: StrictJSONParser.SyntaxError.self) { try StrictJSONParser.parse(Array(text.utf8)) }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]

        #expect(throws: StrictJSONParser.SyntaxError.self) { try StrictJSONParser.parse(bytes) }
    }

    @Test("nesting up to the limit is accepted")
    func depthLimit() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)

        #expect(throws: Never.self) { try StrictJSONParser.parse(Array(text.utf8)) }
    }
}
