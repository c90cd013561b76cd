import RESTRepository
import Testing

@Suite("LinkHeader")
struct LinkHeaderTests {
    @Test("parses several links with quoted relations")
    func severalLinks() {
        let value = #"</a?page=1>; rel="first", </a?page=3>; rel="next", </a?page=9>; rel=last"#

        let links = LinkHeader.parse(value)

        #expect(links.map(\.target) == ["/a?page=1", "/a?page=3", "/a?page=9"])
        #expect(links.map(\.relations) == [["first"], ["next"], ["last"]])
    }

    @Test("commas and semicolons inside the target or quotes do not split")
    func separatorsInsideTargetsAndQuotes() {
        let value = #"</a?x=1,2;3>; rel="next"; title="a, b; c""#

        let links = LinkHeader.parse(value)

        #expect(links.count == 1)
        #expect(links.first?.target == "/a?x=1,2;3")
        #expect(links.first?.parameters["title"] == "a, b; c")
    }

    @Test("a rel with several types and upper case matches each type")
    func multipleRelations() {
        let info = PageInfo(links: LinkHeader.parse(#"</last>; REL="Next Last""#))

        #expect(info.next == "/last")
        #expect(info.last == "/last")
    }

    @Test("malformed input gives only the well-formed links and never crashes", arguments: [
        ("", [String]()), (",", []), ("garbage", []), ("<", []), ("</a; rel=next", []),
        (";;;,,,", []), ("<>", [""]), ("</a>; rel", ["/a"]),
    ])
    func malformed(value: String, targets: [String]) {
        let links = LinkHeader.parse(value)

        #expect(links.map(\.target) == targets)
        #expect(links.allSatisfy { $0.relations.isEmpty })
    }

    @Test("a link without a target bracket is skipped while the others are kept")
    func skipsBadLink() {
        let links = LinkHeader.parse(#"nope; rel="prev", </b>; rel="next""#)

        #expect(links == [Link(target: "/b", relations: ["next"], parameters: ["rel": "next"])])
    }
}
