import Foundation
import Synchronization
import Testing
@testable import IntranetServer

/// How search cuts and folds text: the index, queries and snippets all read it so.
@Suite("Search text: words, folding, pairs of ideographs")
struct SearchTextTests {
    private static func words(_ text: String) -> [String] {
        SearchText.words(text).map { "\($0.folded)@\($0.start)-\($0.end)\($0.isIdeographic ? "i" : "")" }
    }

    @Test("words are folded and placed in code points; ideographs pair with their neighbours")
    func words() {
        #expect(Self.words("农历新年 Zoë-Weiß ２０２６") == ["农历@0-2i", "历新@1-3i", "新年@2-4i", "zoe@5-8", "weiss@9-13", "2026@14-18"])
        #expect(Self.words("a 東 b") == ["a@0-1", "東@2-3i", "b@4-5"], "a lone ideograph is a word of its own")
        #expect(Self.words("東京オフィス移転") == ["東京@0-2i", "京オ@1-3i", "オフ@2-4i", "フィ@3-5i", "ィス@4-6i", "ス移@5-7i", "移転@6-8i"])
        #expect(Self.words("𠀀𠀁x") == ["𠀀𠀁@0-2i", "x@2-3"], "ideographs beyond U+FFFF (four UTF-8 bytes) pair too")
        #expect(Self.words("新\u{0301}年") == ["新年@0-3i"], "an accent inside a run is dropped, not a break")
        #expect(Self.words("ｶﾀｶﾅ") == ["カタ@0-2i", "タカ@1-3i", "カナ@2-4i"], "half-width Katakana folds to full width")
        #expect(Self.words("e\u{0301}te\u{0301} 2026年") == ["ete@0-5", "2026@6-10", "年@10-11i"])
        #expect(SearchText.indexed("Quarterly 新年快乐!") == "quarterly 新年 年快 快乐")
    }

    @Test("a scan stops when asked")
    func stops() {
        var seen: [String] = []
        SearchText.forEachWord(in: "one two 三四五 six") { word in
            seen.append(word.folded)
            return seen.count < 4
        }
        #expect(seen == ["one", "two", "三四", "四五"])
    }

    @Test("PostgreSQL's tsvector: each word once, positions after a gap for the body, A for the title and B for the body")
    func tsvector() {
        let document = AnnouncementSearchIndex.Document(title: "Quarterly report", body: "<p>The quarterly <b>report</b>, report</p>")
        #expect(document.tsvector == "'quarterly':1A,5B 'report':2A,6B,7B 'the':4B")
        let long = AnnouncementSearchIndex.Document(title: "x", body: String(repeating: "word ", count: 300))
        let positions = long.tsvector.split(separator: " ").first.map { $0.split(separator: ",").count }
        #expect(positions == 256, "at most 256 positions a word")
        #expect(AnnouncementSearchIndex.Document(title: "", body: nil).tsvector == "")
    }

    @Test("a body's snippet is the same whether its words are scanned or were folded before (a result found again)")
    func foldedWordsGiveTheSameSnippets() throws {
        let filler = String(repeating: "the canteen menu changes weekly and ", count: 12)
        let texts = [
            "Zoë Weiß met the Gonçalves team about SECURITY keys; security first. " + filler + "Secure, secured.",
            filler + "农历新年快乐！新年 in the office 办公室 and 会議室 " + filler + "新年",
            "Nothing here matches at all. " + filler,
            filler + filler + "quarterly report: the quarterly numbers",
        ]
        let queries = ["zoe weiss", "secu", "新年", "办公室", "\"quarterly report\"", "goncalves security", "absent", "menu"]
        var compared = 0
        for text in texts {
            let words = SearchText.foldedWords(text)
            for raw in queries {
                let query = try SearchQuery.parse(raw)
                let scanned = SnippetMaker.snippet(of: text, for: query)
                let folded = SnippetMaker.snippet(of: text, words: words, for: query)
                #expect(scanned?.text == folded?.text && scanned?.matches == folded?.matches, "\(raw) in \(text.prefix(30))…")
                if scanned != nil { compared += 1 }
            }
            let every = try SearchQuery.parse("the")
            #expect(SnippetMaker.marks(in: words, for: every).map { [$0.start, $0.end] } == SnippetMaker.marks(in: text, for: every).map { [$0.start, $0.end] })
        }
        #expect(compared >= 10, "the pairs with a match have a snippet to compare")
        // A long match made of touching words, an empty text, a word too long to be a word.
        let run = String(repeating: "新年快乐农历春节", count: 25)
        for (text, raw) in [(run + " and more", run), ("", "anything"), (String(repeating: "x", count: 300) + " xylophone", "xy")] {
            let query = try SearchQuery.parse(raw)
            let scanned = SnippetMaker.snippet(of: text, for: query)
            let folded = SnippetMaker.snippet(of: text, words: SearchText.foldedWords(text), for: query)
            #expect(scanned?.text == folded?.text && scanned?.matches == folded?.matches, "\(raw.prefix(10))")
        }
    }

    @Test("a body is kept as plain text when first found, and with its words folded when found again; another revision, creation time or length, or a change, starts over")
    func plainBodiesFoldOnSecondSight() throws {
        let bodies = PlainBodies()
        let body = "<p>The <b>canteen</b> opens at noon.</p>"
        let key = PlainBodies.Key(id: 7, revision: 3, createdAt: 1_700_000_000)
        #expect(!bodies.isKept(key) && bodies.kept(key, length: body.utf8.count) == nil)
        let first = bodies.entry(key, body: body)
        #expect(first.text == "The canteen opens at noon." && first.words == nil && first.length == body.utf8.count)
        #expect(bodies.isKept(key))
        #expect(bodies.kept(key, length: body.utf8.count)?.words?.count == 5, "folded when found again")
        #expect(bodies.entry(key, body: body).words?.count == 5, "kept folded")
        #expect(bodies.kept(key, length: body.utf8.count + 1) == nil, "kept for a body of another length: not given")
        // The same length each time: only the key tells them apart.
        let sameLength = "<p>The <b>kitchen</b> shuts at noon.</p>"
        try #require(sameLength.utf8.count == body.utf8.count)
        let reused = PlainBodies.Key(id: 7, revision: 3, createdAt: 1_800_000_000)
        #expect(!bodies.isKept(reused) && bodies.kept(reused, length: body.utf8.count) == nil, "an id given again, with another creation time")
        #expect(bodies.entry(reused, body: sameLength).text == "The kitchen shuts at noon.")
        let edited = PlainBodies.Key(id: 7, revision: 4, createdAt: 1_800_000_000)
        #expect(bodies.kept(edited, length: body.utf8.count) == nil, "another revision")
        #expect(bodies.entry(edited, body: body).text == "The canteen opens at noon.")
        bodies.forget([7])
        #expect(!bodies.isKept(edited), "forgotten when the announcement changes")
        _ = bodies.entry(edited, body: body)
        bodies.forgetAll()
        #expect(!bodies.isKept(edited))
    }

    @Test("a phrase's matches are kept for one snapshot, for a minute at most, and for 64 phrases at most")
    func keptPhrases() {
        let clock = Mutex(ContinuousClock.now)
        let phrases = KeptPhrases(now: { clock.withLock { $0 } })
        let slots = SlotSet([1, 5], capacity: 10)
        phrases.keep(slots, of: ["red", "door"], stamp: 4)
        #expect(phrases.slots(of: ["red", "door"], stamp: 4)?.count == 2)
        #expect(phrases.slots(of: ["red", "door"], stamp: 5) == nil, "another snapshot")
        #expect(phrases.slots(of: ["door", "red"], stamp: 4) == nil)
        clock.withLock { $0 += .seconds(61) }
        #expect(phrases.slots(of: ["red", "door"], stamp: 4) == nil, "too old")
        phrases.keep(slots, of: ["blue"], stamp: 6)
        phrases.keep(slots, of: ["late"], stamp: 5)
        #expect(phrases.slots(of: ["blue"], stamp: 6) != nil && phrases.slots(of: ["late"], stamp: 5) == nil, "a search that took long drops nothing newer")
        for number in 0...KeptPhrases.limit { phrases.keep(slots, of: ["w\(number)"], stamp: 6) }
        #expect(phrases.slots(of: ["w\(KeptPhrases.limit)"], stamp: 6) != nil)
        #expect(phrases.slots(of: ["w0"], stamp: 6) == nil, "all let go when one more comes")
    }

    @Test("a match far into a text: the snippet starts at a word a little before it, with an ellipsis, and its marks point at the match")
    func farMatch() throws {
        let query = try SearchQuery.parse("canteen")
        for filler in ["🎉 word ", "données ", "a ", "办公室会议 "] {
            let before = String(repeating: filler, count: 400)
            let text = before + "the canteen opens at noon, " + String(repeating: "then more ", count: 50) + "end."
            for words in [nil, SearchText.foldedWords(text)] {
                let snippet = try #require(SnippetMaker.snippet(of: text, words: words, for: query))
                #expect(snippet.marked == ["canteen"], "\(filler) \(snippet.matches)")
                #expect(snippet.text.hasPrefix("…") && snippet.text.hasSuffix("…"))
                let shown = String(snippet.text.dropFirst().dropLast())
                #expect(text.contains(" " + shown + " "), "begins and ends at words: \(snippet.text)")
                #expect(shown.unicodeScalars.count <= SnippetMaker.length)
                let lead = try #require(shown.range(of: "canteen")).lowerBound
                #expect(shown.unicodeScalars[..<lead].count <= SnippetMaker.lead, "little before the match")
            }
        }
    }

    @Test("a snippet marks a long match whole: words touching the first mark extend it past the snippet's usual length")
    func longMatch() throws {
        let run = String(repeating: "新年快乐农历春节", count: 25)  // 200 ideographs
        let snippet = try #require(SnippetMaker.snippet(of: run + " and more", for: try SearchQuery.parse(run)))
        #expect(snippet.matches == [[0, 200]], "\(snippet.matches)")
        #expect(snippet.text.unicodeScalars.count >= 200)
    }
}
