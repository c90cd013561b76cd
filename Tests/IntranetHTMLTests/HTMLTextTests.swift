import Testing
@testable import IntranetHTML

/// A body as plain text: what search indexes and snippets show.
@Suite("Plain text of HTML")
struct HTMLTextTests {
    @Test("markup goes, blocks are spaces, every run of white space (in any script) is one space")
    func plain() {
        #expect(HTMLText.plain("<p>Hello <b>world</b></p><p>again</p>") == "Hello world again")
        #expect(HTMLText.plain("<p>\u{3000}新年\u{00A0}\u{00A0}快乐\u{2028}</p>\n\t<ul><li>one</li><li>two</li></ul>") == "新年 快乐 one two")
        #expect(HTMLText.plain("Zoë&nbsp;&amp; Weiß") == "Zoë & Weiß")
        #expect(HTMLText.plain("   ") == "")
    }

    @Test("white space is exactly what Unicode's White_Space property says, for every scalar")
    func whiteSpace() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if HTMLText.isWhiteSpace(scalar) != scalar.properties.isWhitespace { differing.append(value) }
        }
        #expect(differing.isEmpty, "\(differing.map { String($0, radix: 16) })")
    }
}
