import Foundation
import IntranetClient
import Testing
@testable import IntranetTerminal

@Suite("Rendering malformed and hostile HTML")
struct NastyHTMLTests {
    private func render(_ html: String, width: Int = 30) -> String {
        HTMLRenderer(width: width, isStyled: false).render(html)
    }

    @Test("unclosed tags still give paragraphs and keep the text", arguments: [
        ("<p>One<p>Two <strong>bold <em>both", "One\n\nTwo bold both"),
        ("</div></p>Stray <b>closers<<>> and a < b > c", "Stray closers<<>> and a < b >\nc"),
        ("<li>orphan item</li><li></li>", "• orphan item\n•"),
        ("Just text, no tags at all & an ampersand", "Just text, no tags at all & an\nampersand"),
    ])
    func unclosed(html: String, expected: String) {
        #expect(render(html) == expected)
    }

    @Test("scripts, styles, comments, titles and noscript vanish, even when they contain tags")
    func droppedElements() {
        #expect(render("<p>Hi</p><script>alert('<p>x</p>')</script><style>p { color: red }</style><p>there</p>") == "Hi\n\nthere")
        #expect(render("<!-- secret comment --><title>Doc title</title><p>Body</p><noscript>enable js</noscript>") == "Body")
    }

    @Test("nested lists indent by level with their own bullets; ordered lists number from start, aligned")
    func nestedLists() {
        let nested = "<ul><li>Fruit<ul><li>Apple</li><li>Pear<ol><li>Conference</li><li>Williams</li></ol></li></ul></li><li>Bread</li></ul>"

        #expect(render(nested) == """
            • Fruit
              ◦ Apple
              ◦ Pear
                1. Conference
                2. Williams
            • Bread
            """)
        #expect(render(#"<ol start="9"><li>nine</li><li>ten</li></ol>"#) == " 9. nine\n10. ten")
    }

    @Test("entities are decoded, a non-breaking space holds words together, unknown ones stay as text")
    func entities() {
        let html = "<p>Fish &amp; chips &lt;3 caf&eacute; &euro;5 &#x1F600; &#169; a&nbsp;b &bogus;</p>"

        #expect(render(html) == "Fish & chips <3 café €5 😀 ©\na b &bogus;")
    }

    @Test("links are numbered once per target; javascript: and in-page links are plain text")
    func links() {
        let html = ##"<p>Go <a href="javascript:alert(1)">here</a>, <a href="#top">top</a>, <a href="https://a.example">A</a> and <a href="https://a.example">A again</a> <a href="/relative">rel</a></p>"##

        #expect(render(html) == "Go here, top, A [1] and A\nagain [1] rel [2]\n\n[1] https://a.example\n[2] /relative")
    }

    @Test("br breaks lines, pre keeps its lines and spaces, headings, quotes, rules and tables read as text")
    func structure() {
        let breaks = "<p>Line one<br>Line two<br><br>after a blank</p><pre>  indented\n    code &lt;kept&gt;\n</pre>"
        let blocks = "<h2>Heading</h2><blockquote><p>Quoted words that go on long enough to need wrapping at a narrow width</p></blockquote><hr><table><tr><th>Day</th><th>Menu</th></tr><tr><td>Mon</td><td>Soup</td></tr></table>"

        #expect(render(breaks) == "Line one\nLine two\n\nafter a blank\n\n  indented\n    code <kept>")
        #expect(render(blocks) == """
            Heading

            │ Quoted words that go on long
            │ enough to need wrapping at a
            │ narrow width

            ――――――――

            Day | Menu
            Mon | Soup
            """)
    }

    @Test("embedded media are a line naming the URL; images show their alt text")
    func embeds() {
        let html = #"<video src="https://v.example/a.mp4">Your browser cannot play this</video><iframe src="https://e.example/x"></iframe><img src="x.png" alt="A chart"><img src="y.png">"#

        #expect(render(html) == "[Video: https://v.example/a.mp4]\n\n[Embedded: https://e.example/x]\n\n[image: A chart][image]")
    }

    @Test("a word wider than the line is broken across lines rather than overflowing")
    func longWord() {
        #expect(render("<p>Averyveryveryverylongwordthatcannotfitononelineatall</p>") == "Averyveryveryverylongwordthatc\nannotfitononelineatall")
    }

    @Test("no body at all, an empty body and a blank body show '(no body)' under the title")
    func noBody() {
        let view = AnnouncementDetailView(width: 40, isStyled: false)

        for body in [nil, "", "  \n ", "<p></p><script>x()</script>"] {
            let lines = view.lines(for: Announcement(id: 3, title: "Empty", body: body))

            #expect(lines == ["Empty", "Announcement 3", "", "(no body)"])
        }
    }

    @Test("deep nesting renders (libxml2 stops nesting at its depth limit), and a megabyte of text wraps")
    func hostileSizes() {
        func nest(_ levels: Int) -> String {
            "top" + String(repeating: "<div><span>", count: levels) + "deep" + String(repeating: "</span></div>", count: levels)
        }
        let big = "<p>" + String(repeating: "word ", count: 200_000) + "</p>"

        #expect(render(nest(100)) == "top\n\ndeep")
        #expect(render(nest(10_000)).hasPrefix("top"))
        #expect(render(big, width: 80).split(separator: "\n").count == 12_500)
    }
}
