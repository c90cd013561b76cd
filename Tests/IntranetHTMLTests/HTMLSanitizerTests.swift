import IntranetHTML
import Testing

/// The sanitiser on its own: a table of bodies and what is stored of them.
@Suite("HTML sanitiser")
struct HTMLSanitizerTests {
    static let table: [(input: String, output: String, removals: Int)] = [
        // Safe bodies keep their meaning; only the spelling is normalised.
        ("<p>Hello <strong>world</strong></p>", "<p>Hello <strong>world</strong></p>", 0),
        ("Plain text, no tags", "Plain text, no tags", 0),
        ("Hello <b>you</b>\n\nand more", "Hello <b>you</b>\n\nand more", 0),
        ("<P CLASS='x'>Shouting</P>", "<p>Shouting</p>", 1),
        ("Tom &amp; Jerry &lt;3 &eacute;t&eacute; &nbsp;", "Tom &amp; Jerry &lt;3 été \u{00A0}", 0),
        ("<p>caf\u{00E9} \u{65E5}\u{672C} \u{1F389}</p>", "<p>caf\u{00E9} \u{65E5}\u{672C} \u{1F389}</p>", 0),
        ("<ul><li>one<li>two</ul>", "<ul><li>one</li><li>two</li></ul>", 0),
        ("<ol start=\"3\" type=\"i\" reversed><li value=\"7\">x</li></ol>", "<ol reversed start=\"3\" type=\"i\"><li value=\"7\">x</li></ol>", 0),
        ("<table><tr><th scope=\"col\" colspan=\"2\">h</th></tr><tr><td rowspan=\"x\">d</td></tr></table>",
         "<table><tr><th colspan=\"2\" scope=\"col\">h</th></tr><tr><td>d</td></tr></table>", 1),
        ("<pre>line 1\n  line 2 &lt;tag&gt;</pre>", "<pre>line 1\n  line 2 &lt;tag&gt;</pre>", 0),
        ("<br/><hr><img src=\"/a.png\" alt=\"A &quot;quote&quot;\">", "<br><hr><img alt=\"A &quot;quote&quot;\" src=\"/a.png\">", 0),
        // A quote followed by a combining mark is one character but two scalars: still escaped,
        // so it cannot end the attribute and add one of its own.
        ("<p title='x\"\u{301} onclick=alert(1) y'>t</p>", "<p title=\"x&quot;\u{301} onclick=alert(1) y\">t</p>", 0),
        ("<figure><img src=\"https://x.test/a.jpg\" width=\"300\"><figcaption>Cap</figcaption></figure>",
         "<figure><img src=\"https://x.test/a.jpg\" width=\"300\"><figcaption>Cap</figcaption></figure>", 0),
        ("<a href=\"https://example.com/?a=1&amp;b=2\" title=\"t\">link</a>", "<a href=\"https://example.com/?a=1&amp;b=2\" title=\"t\">link</a>", 0),
        ("<a href=\"mailto:hr@example.com\">mail</a> <a href=\"#top\">top</a> <a href=\"../up\">up</a>",
         "<a href=\"mailto:hr@example.com\">mail</a> <a href=\"#top\">top</a> <a href=\"../up\">up</a>", 0),

        // Scripts and their relatives go with their content.
        ("<p>a<script>alert(1)</script>b</p>", "<p>ab</p>", 1),
        ("<script src=\"https://evil.test/x.js\"></script>after", "after", 1),
        ("<style>p{color:red}</style><p>x</p>", "<p>x</p>", 1),
        ("<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></p></noscript>", "", 1),
        ("<svg><script>alert(1)</script></svg>ok", "ok", 1),
        ("<form action=\"/login\"><input name=\"password\"><button>Go</button></form>", "", 1),
        ("<iframe src=\"https://www.youtube.com/embed/x\"></iframe>", "", 1),
        ("<object data=\"x.swf\"></object><embed src=\"x.swf\">", "", 2),
        ("<meta http-equiv=\"refresh\" content=\"0;url=https://evil.test\">text", "text", 1),

        // Event handlers, styles and other attributes are removed.
        ("<img src=\"x.png\" onerror=\"alert(1)\">", "<img src=\"x.png\">", 1),
        ("<p onclick=\"steal()\" style=\"background:url(x)\" id=\"main\" class=\"c\">t</p>", "<p>t</p>", 4),
        ("<a href=\"/x\" target=\"_blank\" onmouseover=\"x()\">t</a>", "<a href=\"/x\">t</a>", 2),
        ("<p dir=\"RTL\" lang=\"ar\">\u{0645}\u{0631}\u{062D}\u{0628}\u{0627}</p>", "<p dir=\"rtl\" lang=\"ar\">\u{0645}\u{0631}\u{062D}\u{0628}\u{0627}</p>", 0),
        ("<p dir=\"sideways\">t</p>", "<p>t</p>", 1),

        // Dangerous URLs, however spelt.
        ("<a href=\"javascript:alert(1)\">x</a>", "<a>x</a>", 1),
        ("<a href=\"JaVaScRiPt:alert(1)\">x</a>", "<a>x</a>", 1),
        ("<a href=\" java\tscript:alert(1)\">x</a>", "<a>x</a>", 1),
        ("<a href=\"&#106;avascript:alert(1)\">x</a>", "<a>x</a>", 1),
        ("<a href=\"vbscript:msgbox\">x</a>", "<a>x</a>", 1),
        ("<img src=\"data:image/svg+xml;base64,PHN2Zz4=\">", "<img>", 1),
        ("<a href=\"data:text/html,<script>alert(1)</script>\">x</a>", "<a>x</a>", 1),
        ("<img src=\"mailto:x@y.z\">", "<img>", 1),
        ("<a href=\"file:///etc/passwd\">x</a>", "<a>x</a>", 1),
        ("<blockquote cite=\"javascript:x\">q</blockquote>", "<blockquote>q</blockquote>", 1),
        ("<video src=\"https://x.test/v.mp4\" poster=\"javascript:x\" autoplay></video>", "<video src=\"https://x.test/v.mp4\" controls></video>", 2),

        // Unknown and presentational elements are unwrapped; comments dropped.
        ("<center><font color=\"red\">old</font></center>", "old", 2),
        ("<!-- wp:paragraph --><p>Block</p><!-- /wp:paragraph -->", "<p>Block</p>", 0),
        ("<custom-widget data-x=\"1\">inside</custom-widget>", "inside", 1),
        ("<html><body><p>doc</p></body></html>", "<p>doc</p>", 1),

        // Broken markup is repaired, never passed through.
        ("<p>unclosed <b>bold", "<p>unclosed <b>bold</b></p>", 0),
        ("</div>stray end tags</p>", "stray end tags", 0),
        ("a < b > c", "a &lt; b &gt; c", 0),
        ("<p title=\"x\"onclick=\"y\">t</p>", "<p title=\"x\">t</p>", 1),
        ("", "", 0),
    ]

    @Test("bodies in, safe HTML out", arguments: table)
    func sanitises(input: String, output: String, removals: Int) {
        let result = HTMLSanitizer().sanitize(input)
        #expect(result.html == output)
        #expect(result.removals == removals)
    }

    @Test("sanitising what was sanitised changes nothing and removes nothing", arguments: table)
    func idempotent(input: String, output: String, removals: Int) {
        let once = HTMLSanitizer().sanitize(input).html
        let twice = HTMLSanitizer().sanitize(once)
        #expect(twice.html == once)
        #expect(twice.removals == 0)
    }

    @Test("an iframe stays only for an https page on a configured host, sandboxed")
    func embeds() {
        let sanitizer = HTMLSanitizer(embedHosts: ["www.youtube-nocookie.com"])
        #expect(sanitizer.sanitize("<iframe src=\"https://www.youtube-nocookie.com/embed/abc\" width=\"560\" onload=\"x()\"></iframe>").html
            == "<iframe src=\"https://www.youtube-nocookie.com/embed/abc\" width=\"560\" sandbox=\"allow-scripts allow-same-origin allow-popups\"></iframe>")
        for source in [
            "http://www.youtube-nocookie.com/embed/abc", "https://evil.test/embed", "https://www.youtube-nocookie.com.evil.test/x",
            "https://evil.test@www.youtube-nocookie.com/x", "javascript:alert(1)", "//www.youtube-nocookie.com/embed/abc",
        ] {
            #expect(sanitizer.sanitize("<iframe src=\"\(source)\"></iframe>").html == "", "\(source)")
        }
    }

    @Test("no script survives nesting tricks")
    func nesting() {
        let hostile = [
            "<scr<script>ipt>alert(1)</script>", "<<script>script>alert(1)<</script>/script>",
            "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>", "<textarea><script>alert(1)</script></textarea>",
            "<a href=\"java&#x0A;script:alert(1)\">x</a>", "<img src=x onerror=alert(1)//",
        ]
        for input in hostile {
            let html = HTMLSanitizer().sanitize(input).html.lowercased()
            #expect(!html.contains("<script"), "\(input) → \(html)")
            #expect(!html.contains("onerror="), "\(input) → \(html)")
            #expect(!html.contains("javascript:"), "\(input) → \(html)")
        }
    }
}
