import Testing
@testable import IntranetServer

/// WordPress's storage format turned into what a reader of the site saw (before sanitising).
@Suite("WordPress content")
struct WordPressContentTests {
    @Test("classic-editor text, shortcodes and block markers become reader HTML", arguments: [
        ("one\ntwo\n\nthree", "<p>one<br>\ntwo</p>\n<p>three</p>"),
        ("Intro:\n<ul>\n<li>a</li>\n\n<li>b</li>\n</ul>\nAfter", "<p>Intro:</p>\n<ul>\n<li>a</li>\n\n<li>b</li>\n</ul>\n<p>After</p>"),
        ("<pre>x\n\ny</pre>", "<pre>x\n\ny</pre>"),
        ("<h2>Title</h2>\nText", "<h2>Title</h2>\n<p>Text</p>"),
        ("Say <b>hi</b><script>x\n\ny</script> there", "<p>Say <b>hi</b><script>x\n\ny</script> there</p>"),
        (#"[video src="https://x.test/v.mp4"]"#, #"<p><a href="https://x.test/v.mp4">https://x.test/v.mp4</a></p>"#),
        (#"[audio mp3="https://x.test/a.mp3"][/audio]"#, #"<p><a href="https://x.test/a.mp3">https://x.test/a.mp3</a></p>"#),
        ("[embed]https://x.test/?a=1&b=\"2\"[/embed]", #"<p><a href="https://x.test/?a=1&amp;b=&quot;2&quot;">https://x.test/?a=1&amp;b=&quot;2&quot;</a></p>"#),
        (#"[caption caption="Old style"]<img src="/a.png">[/caption]"#, "<figure><img src=\"/a.png\">\n<figcaption>Old style</figcaption>\n</figure>"),
        ("[caption]never closed", "<p>[caption]never closed</p>"),
        ("[[caption]]escaped[/caption]", "<p>[[caption]]escaped[/caption]</p>"),
        ("[gallery ids=\"1,2\"]", "<p>[gallery ids=\"1,2\"]</p>"),
        ("<!-- wp:paragraph -->\n<p>Block</p>\n<!-- /wp:paragraph -->\n\n\n\n<!-- wp:paragraph -->\n<p>Two</p>\n<!-- /wp:paragraph -->", "<p>Block</p>\n\n<p>Two</p>"),
        ("", ""),
    ])
    func readerHTML(stored: String, shown: String) {
        #expect(WordPressContent.readerHTML(stored) == shown)
    }
}
