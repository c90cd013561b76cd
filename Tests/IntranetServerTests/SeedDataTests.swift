import Foundation
import Testing
@testable import IntranetServer

@Suite("Seed announcements")
struct SeedDataTests {
    @Test("there are six, each body 700–1,800 characters of HTML with a paragraph, a link, emphasis, code and a list")
    func bodies() throws {
        #expect(SeedAnnouncements.all.count == 6)
        for entry in SeedAnnouncements.all {
            #expect((700...1_800).contains(entry.body.count), "\(entry.title): \(entry.body.count) characters")
            for tag in ["<p", "<a href=", "<strong>", "<em>", "<code>", "<li>"] {
                #expect(entry.body.contains(tag), "\(entry.title) lacks \(tag)")
            }
            #expect(entry.body.contains("“") && entry.body.contains("”"), "\(entry.title) lacks typographic quotes")
            #expect(entry.body.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "\(entry.title) lacks a line in Chinese")
            #expect(entry.body.unicodeScalars.contains { (0xC0...0x17F).contains($0.value) }, "\(entry.title) lacks an accented name")
            #expect((1...255).contains(entry.title.unicodeScalars.count))
        }
    }

    @Test("at least two bodies embed a video")
    func videos() {
        #expect(SeedAnnouncements.all.filter { $0.body.contains("<iframe") }.count >= 2)
    }
}
