import HTTPTypes
import IntranetAPI
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import IntranetTerminal

@Suite("Table output")
struct TableOutputTests {
    private func page(_ items: [(Int, String)], total: Int, page: Int = 1, perPage: Int = 10) -> MockResponse {
        .json(items.map { AnnouncementV2.ListItem(id: $0.0, title: $0.1) }, headerFields: [
            .xTotal: String(total), .xPage: String(page), .xPerPage: String(perPage),
        ])
    }

    @Test("the list is an aligned table with right-aligned ids and a footer naming the page and the total")
    func alignedTable() async {
        let transport = MockTransport(script: [page([(9, "Fire drill"), (10, "Canteen closed")], total: 12)])

        let result = await runIntranet(["announcements"], transport: transport)

        #expect(result.status == 0)
        #expect(result.output == """
            ID  TITLE
             9  Fire drill
            10  Canteen closed
            Page 1 of 2 · 12 announcements

            """)
        #expect(await transport.lastRequest?.request.path == "/announcements?page=1&per_page=10")
    }

    @Test("titles wider than the terminal are cut with an ellipsis, counting wide characters as two columns")
    func truncation() async {
        let transport = MockTransport(script: [page([
            (1, "Office move: Harbour Building, floors 3 and 4"),
            (2, "新办公室在港口大楼三楼和四楼"),
            (3, "Short"),
        ], total: 3)])

        let result = await runIntranet(["announcements"], transport: transport, width: 24)

        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines[1] == " 1  Office move: Harbou…")
        #expect(lines[2] == " 2  新办公室在港口大楼…")
        #expect(lines[3] == " 3  Short")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 24 })
    }

    @Test("--page and --per-page are sent as the paging query")
    func pagingQuery() async {
        let transport = MockTransport(script: [page([(4, "D")], total: 4, page: 2, perPage: 3)])

        let result = await runIntranet(["announcements", "--page", "2", "--per-page", "3"], transport: transport)

        #expect(await transport.lastRequest?.request.path == "/announcements?page=2&per_page=3")
        #expect(result.output.hasSuffix("Page 2 of 2 · 4 announcements\n"))
    }

    @Test("--all walks every page through the page sequence and counts all announcements")
    func allPages() async {
        let transport = MockTransport(script: [
            page([(1, "A"), (2, "B")], total: 3, page: 1, perPage: 2),
            page([(3, "C")], total: 3, page: 2, perPage: 2),
        ])

        let result = await runIntranet(["announcements", "--all", "--per-page", "2"], transport: transport)

        #expect(await transport.requests.map(\.request.path) == ["/announcements?page=1&per_page=2", "/announcements?page=2&per_page=2"])
        #expect(result.output == "ID  TITLE\n 1  A\n 2  B\n 3  C\n3 announcements\n")
    }

    @Test("an empty page says there are no announcements")
    func emptyPage() async {
        let result = await runIntranet(["announcements", "--page", "5"], transport: MockTransport(script: [page([], total: 6, page: 5)]))

        #expect(result.output == "No announcements.\nPage 5 of 1 · 6 announcements\n")
    }

    @Test("on a terminal the header is bold; piped output has no escape sequences")
    func styling() async {
        let styled = await runIntranet(["announcements"], transport: MockTransport(script: [page([(1, "A")], total: 1)]), isOutputTerminal: true)
        let noColor = await runIntranet(
            ["announcements"], transport: MockTransport(script: [page([(1, "A")], total: 1)]),
            isOutputTerminal: true, environment: ["NO_COLOR": "1"])

        #expect(styled.output.hasPrefix("\u{1B}[1mID  TITLE\u{1B}[0m\n"))
        #expect(!noColor.output.contains("\u{1B}"))
    }

    @Test("COLUMNS sets the width when standard output is not a terminal; nonsense falls back to 80")
    func columnsVariable() {
        #expect(TerminalSize.width(fromColumns: "120") == 120)
        #expect(TerminalSize.width(fromColumns: nil) == 80)
        #expect(TerminalSize.width(fromColumns: "wide") == 80)
        #expect(TerminalSize.width(fromColumns: "-3") == 80)
    }
}
