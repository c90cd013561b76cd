import Testing
@testable import IntranetServer
@testable import IntranetTerminal

@Suite("Rendering the seed announcements")
struct SeedRenderingTests {
    @Test("each seed body renders to its golden text at 80 columns", arguments: Array(zip(SeedAnnouncements.all.indices, SeedGoldens.all)))
    func golden(index: Int, expected: String) {
        let body = SeedAnnouncements.all[index].body

        let text = HTMLRenderer(width: 80, isStyled: false).render(body)

        #expect(text == expected)
    }

    @Test("no seed body shows a tag, an entity or a line wider than the width, at 80 or 32 columns", arguments: [80, 32])
    func noRawMarkup(width: Int) {
        for entry in SeedAnnouncements.all {
            let rendering = HTMLRenderer(width: width, isStyled: false).rendering(of: entry.body)

            for line in rendering.lines where !line.hasPrefix("[Embedded") {
                #expect(DisplayWidth.of(line) <= width, "too wide: \(line)")
            }
            #expect(!rendering.text.contains("<"))
            #expect(!rendering.text.contains("&amp;") && !rendering.text.contains("&#"))
        }
    }

    @Test("at 32 columns Chinese text breaks between characters and list items hang under their text")
    func narrow() {
        let text = HTMLRenderer(width: 32, isStyled: false).render(SeedAnnouncements.welcome.body)

        #expect(text.contains("""
            • Announcements from every team,
              newest first
            """))
        #expect(text.contains("欢迎来到新的内部网，祝大家工作顺\n利！"))
    }

    @Test("on a terminal strong is bold, em italic, code cyan and link text underlined, each reset after")
    func styled() {
        let text = HTMLRenderer(width: 200, isStyled: true).render(SeedAnnouncements.welcome.body)

        #expect(text.contains("This is the \u{1B}[1mnew\u{1B}[0m \u{1B}[1mintranet\u{1B}[0m: one place"))
        #expect(text.contains("Our IT lead, \u{1B}[3mZoë\u{1B}[0m \u{1B}[3mLefèvre\u{1B}[0m, puts it"))
        #expect(text.contains("the \u{1B}[36m#help-desk\u{1B}[0m channel"))
        #expect(text.contains("bookmark \u{1B}[4mthe\u{1B}[0m \u{1B}[4mhome\u{1B}[0m \u{1B}[4mpage\u{1B}[0m [1]"))
    }
}
