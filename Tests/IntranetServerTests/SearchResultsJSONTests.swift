import Foundation
import IntranetAPI
import NIOCore
import Testing
@testable import IntranetServer

/// The search's answer written by hand as JSON: what `JSONEncoder` writes, for any text.
@Suite("Search: results as JSON")
struct SearchResultsJSONTests {
    /// Random results: texts with quotes, backslashes, slashes, control characters, accents,
    /// ideographs and emoji; a group left out or empty at times.
    static func results(_ generator: inout SeededGenerator, controls: Bool) -> SearchResults {
        let pieces = ["a", "Zoë", "\"", "\\", "/", "办公室", "🎉", " ", "é", "<b>", "&amp;", "\u{2028}"] + (controls ? ["\n", "\t", "\r", "\u{0}", "\u{1F}", "\u{8}", "\u{C}", "\u{7F}"] : [])
        func text() -> String { (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        func snippet() -> SearchSnippet {
            SearchSnippet(text: text(), matches: (0..<Int.random(in: 0...3, using: &generator)).map { _ in [Int.random(in: 0...200, using: &generator), Int.random(in: 1...9, using: &generator)] })
        }
        func group<Item>(_ make: (Int, String, SearchSnippet) -> Item) -> SearchGroup<Item> {
            SearchGroup(total: Int.random(in: 0...100_000, using: &generator), items: (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                make(Int.random(in: 1...Int(Int32.max), using: &generator), text(), snippet())
            })
        }
        let people = group(PersonHit.init)
        let announcements = group(AnnouncementHit.init)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return SearchResults(people: people, announcements: nil)
        case 1: return SearchResults(people: nil, announcements: announcements)
        default: return SearchResults(people: people, announcements: announcements)
        }
    }

    @Test("without control characters, the very bytes JSONEncoder writes (so entity tags stay as they were)")
    func sameBytes() throws {
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<300 {
            let results = Self.results(&generator, controls: false)
            let written = Array(SearchResultsJSON.encode(results).readableBytesView)
            let expected = Array(try IntranetJSON.encoder().encode(results))
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test("with control characters too, JSON every decoder reads back as the same results")
    func readsBack() throws {
        var generator = SeededGenerator(seed: 32)
        for _ in 0..<300 {
            let results = Self.results(&generator, controls: true)
            let written = Data(SearchResultsJSON.encode(results).readableBytesView)
            #expect(try IntranetJSON.decoder().decode(SearchResults.self, from: written) == results)
            #expect((try? JSONSerialization.jsonObject(with: written)) != nil)
        }
    }
}
