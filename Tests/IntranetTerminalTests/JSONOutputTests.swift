import Foundation
import IntranetAPI
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import IntranetTerminal

@Suite("JSON output")
struct JSONOutputTests {
    @Test("list --output json prints the response body byte for byte")
    func listVerbatim() async {
        let body = #"[ {"title":"Caf\u00e9 , [open]","id":1} ,{"id":2,"title":"B"}]"#
        let transport = MockTransport(script: [.text(body, headerFields: [.xTotal: "2"])])

        let result = await runIntranet(["announcements", "--output", "json"], transport: transport)

        #expect(result.status == 0)
        #expect(result.output == body + "\n")
    }

    @Test("--all --output json joins every page's items into one array, each item as sent")
    func allPagesJoined() async {
        let transport = MockTransport(script: [
            .text(#"[{"id":1,"title":"A \"quoted\", yes"}, {"id":2,"title":"B"}]"#, headerFields: [.xTotal: "3"]),
            .text(#"[{"id":3,"title":"C ]}"}]"#, headerFields: [.xTotal: "3"]),
        ])

        let result = await runIntranet(["announcements", "--all", "--per-page", "2", "--output", "json"], transport: transport)

        #expect(result.output == #"[{"id":1,"title":"A \"quoted\", yes"},{"id":2,"title":"B"},{"id":3,"title":"C ]}"}]"# + "\n")
    }

    @Test("show under 1.0 prints the list item as the server sent it; under 2.0 the detail body")
    func showVerbatim() async {
        let list = #"[{"id":1,"title":"A","body":null},{"body":"<p>x</p>","id":2,"title":"B"}]"#
        let detail = #"{"body":"<p>x</p>","createdAt":"2026-11-22T01:02:03.000Z","id":2,"title":"B","updatedAt":"2026-11-22T01:02:03.000Z"}"#

        let old = await runIntranet(["announcements", "show", "2", "--api-version", "1.0", "--output", "json"],
                                    transport: MockTransport(script: [.text(list, headerFields: [.xTotal: "2"])]))
        let new = await runIntranet(["announcements", "show", "2", "--output", "json"], transport: MockTransport(script: [.text(detail)]))

        #expect(old.output == #"{"body":"<p>x</p>","id":2,"title":"B"}"# + "\n")
        #expect(new.output == detail + "\n")
    }

    @Test("the element splitter respects strings, escapes and nesting, and rejects non-arrays")
    func splitter() throws {
        let data = Data(#" [ {"a":[1,2,{"b":"],}"}]} , "x\\\"y" ,3 ] "#.utf8)

        let elements = try #require(JSONArrayElements.split(data))

        #expect(elements.map { String(decoding: $0, as: UTF8.self) } == [#"{"a":[1,2,{"b":"],}"}]}"#, #""x\\\"y""#, "3"])
        #expect(JSONArrayElements.split(Data("[]".utf8)) == [])
        #expect(JSONArrayElements.split(Data(#"{"id":1}"#.utf8)) == nil)
        #expect(JSONArrayElements.split(Data("[1,2".utf8)) == nil)
    }
}
