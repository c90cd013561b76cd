import IntranetAPI
import Testing

@Suite("Search snippets in the SDK")
struct SearchSnippetTests {
    @Test("marked gives the matched words by code points, and skips offsets outside the text, huge ones included, without trapping")
    func marked() {
        let snippet = SearchSnippet(text: "Zoë Lefèvre · IT", matches: [[0, 3], [4, 7], [Int.max, 1], [1, Int.max], [-1, 2], [15, 2], [14, 0]])
        #expect(snippet.marked == ["Zoë", "Lefèvre"])
    }
}
