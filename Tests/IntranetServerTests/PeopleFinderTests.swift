import Testing
@testable import IntranetServer

/// How the search's people group ranks a person whose search key holds every word typed.
@Suite("Search: people's ranking tiers")
struct PeopleFinderTests {
    // A key as the directory folds it: the name on the first line, then the other fields.
    static let key = "ana lucia goncalves\nfacilities lead\nfacilities·lisbon\nana.goncalves@example.com"

    @Test("whole words of the name, then beginnings in the name, then beginnings anywhere, then the rest")
    func tiers() {
        #expect(PeopleFinder.tier(of: Self.key, ["goncalves", "ana"]) == 0)
        #expect(PeopleFinder.tier(of: Self.key, ["gonc", "luc"]) == 1)
        #expect(PeopleFinder.tier(of: Self.key, ["lisbon", "ana"]) == 2, "after a middle dot")
        #expect(PeopleFinder.tier(of: Self.key, ["example"]) == 2, "after a dot of the address")
        #expect(PeopleFinder.tier(of: Self.key, ["ucia"]) == 3, "inside a word")
        #expect(PeopleFinder.tier(of: Self.key, ["ana", "ilities"]) == 3, "one word inside another is enough")
    }

    @Test("letters beyond ASCII join a word; other marks and the end of the name part words")
    func wordBoundariesBeyondASCII() {
        #expect(PeopleFinder.tier(of: "muñoz garcía\n", ["oz"]) == 3, "ñ is a letter: oz is inside muñoz")
        #expect(PeopleFinder.tier(of: "muñoz garcía\n", ["garcía"]) == 0)
        #expect(PeopleFinder.tier(of: "muñoz garcía\n", ["garc"]) == 1)
        #expect(PeopleFinder.tier(of: "李明\n北京·办公室", ["北京"]) == 2, "beginning a line after the name")
        #expect(PeopleFinder.tier(of: "ana\nana2\n", ["ana"]) == 0)
        #expect(PeopleFinder.tier(of: "x\nana2\n", ["ana"]) == 2, "a digit after it: a beginning, not a whole word")
    }
}
