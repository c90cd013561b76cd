import Foundation
import Spearal
import Testing

/// The sample of docs/spearal.md, verbatim inside a test so that it keeps compiling and telling the truth.
struct Announcement: Codable, Equatable, SpearalClassNamed {
    static let spearalClassName = "org.intranet.Announcement"
    var id: Int
    var title: String
    var body: String?
}

@Suite("docs/spearal.md sample")
struct ReadmeSampleTests {
    @Test("the docs/spearal.md sample encodes, prints and decodes an announcement")
    func readmeSampleRuns() throws {
        // docs/spearal.md sample begins
        let announcement = Announcement(id: 1, title: "Welcome", body: nil)

        let data = try SpearalEncoder().encode(announcement)
        let dump = try SpearalPrinter().print(data)
        // #0 org.intranet.Announcement {
        // 	body: nil,
        // 	id: 1,
        // 	title: "Welcome"
        // }

        let decoded = try SpearalDecoder().decode(Announcement.self, from: data)
        // docs/spearal.md sample ends

        #expect(dump == "#0 org.intranet.Announcement {\n\tbody: nil,\n\tid: 1,\n\ttitle: \"Welcome\"\n}")
        #expect(decoded == announcement)
        #expect(data.count == 53)
    }
}
