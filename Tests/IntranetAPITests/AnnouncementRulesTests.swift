import IntranetAPI
import Testing

@Suite("Announcement validation rules")
struct AnnouncementRulesTests {
    @Test("titles of 1 to 255 code points pass after trimming", arguments: [
        "a", String(repeating: "a", count: 255), String(repeating: "公", count: 255), String(repeating: "👩‍💻", count: 85), "  padded  ",
    ])
    func validTitles(title: String) {
        #expect(AnnouncementRules.titleProblem(title) == nil)
    }

    @Test("empty, white-space-only and 256-code-point titles fail", arguments: [
        "", " ", "\t\n ", "\u{00A0}\u{2003}", String(repeating: "a", count: 256), String(repeating: "é", count: 256),
    ])
    func invalidTitles(title: String) {
        #expect(AnnouncementRules.titleProblem(title) != nil)
    }

    @Test("code points are counted, not grapheme clusters: 128 family emoji (5 code points each) fail")
    func codePointsNotCharacters() {
        let family = String(repeating: "👨‍👩‍👧", count: 52)

        #expect(family.count == 52)
        #expect(family.unicodeScalars.count == 260)
        #expect(AnnouncementRules.titleProblem(family) != nil)
    }

    @Test("trimming removes leading and trailing white space only")
    func trimming() {
        #expect(AnnouncementRules.normalizedTitle("  Fire  drill \n") == "Fire  drill")
    }

    @Test("bodies of any length up to 1,000,000 UTF-8 bytes pass; nil passes; more fails")
    func bodies() {
        #expect(AnnouncementRules.bodyProblem(nil) == nil)
        #expect(AnnouncementRules.bodyProblem(String(repeating: "x", count: 256)) == nil)
        #expect(AnnouncementRules.bodyProblem(String(repeating: "x", count: 1_000_000)) == nil)
        #expect(AnnouncementRules.bodyProblem(String(repeating: "x", count: 1_000_001)) != nil)
        #expect(AnnouncementRules.bodyProblem(String(repeating: "é", count: 500_001)) != nil)
    }
}
