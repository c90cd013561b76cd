import FeedScreen
import Foundation
import IntranetClient
import RESTRepositoryTesting
import Testing

/// The example app's screen logic, driven the way a person drives the screen, against a
/// scripted server that pages like the real one.
@Suite("FeedScreen example")
struct FeedScreenTests {
    /// Seven announcements, served two per page under 2.0; announcement 3 answers 404.
    private static func server() -> MockTransport {
        MockTransport { request in
            let all = (1...7).map { (id: $0, title: "News \($0)") }
            if request.path.hasPrefix("/announcements/"), let id = Int(request.path.dropFirst("/announcements/".count)) {
                guard id != 3 else { return .problem(.notFound, detail: "gone") }
                return .text(#"{"id":\#(id),"title":"News \#(id)","body":"<p>Body &amp; <a href=\"/x\">more</a>, \#(id)</p><p>Next</p>","createdAt":"2026-11-20T09:00:00.000Z","updatedAt":"2026-11-20T09:00:00.000Z"}"#)
            }
            let page = Int(request.queryDictionary["page"] ?? "1") ?? 1
            let slice = all.dropFirst((page - 1) * 2).prefix(2)
            let items = slice.map { #"{"id":\#($0.id),"title":"\#($0.title)"}"# }.joined(separator: ",")
            return .text("[\(items)]")
        }
    }

    private static func feed(_ transport: MockTransport) -> AnnouncementFeed {
        AnnouncementFeed(repository: IntranetClient(transport: transport, apiVersion: .v2_0).announcements, pageSize: 2)
    }

    @Test("list, load more, open: the screen shows the rows, then the body as text with the row marked")
    func listMoreOpen() async throws {
        let feed = Self.feed(Self.server())

        for line in ["r", "m", "o 4"] {
            try #require(await FeedCommand(line)?.perform(on: feed) == true)
        }
        let screen = FeedScreen(await feed.snapshot)

        #expect(screen.lines == [
            "  1. News 1", "  2. News 2", "  3. News 3", "> 4. News 4", "  [m] Load more",
            "--- News 4", "Body & more, 4 Next",
        ])
    }

    @Test("the last page hides Load more; closing removes the detail pane")
    func lastPageAndClose() async throws {
        let feed = Self.feed(Self.server())

        for line in ["r", "m", "m", "m", "1", "c"] {
            await FeedCommand(line)?.perform(on: feed)
        }
        let screen = FeedScreen(await feed.snapshot)

        #expect(screen.rows.map(\.id) == Array(1...7))
        #expect(!screen.showsLoadMore)
        #expect(screen.detail == nil)
        #expect(screen.lines.last == "  7. News 7")
    }

    @Test("opening an announcement that is gone shows the SDK's message in the detail pane")
    func openMissing() async throws {
        let feed = Self.feed(Self.server())

        await FeedCommand.refresh.perform(on: feed)
        await FeedCommand.loadMore.perform(on: feed)
        await FeedCommand.open(3).perform(on: feed)

        #expect(FeedScreen(await feed.snapshot).detail == .failed("It does not exist any more."))
    }

    @Test("a server that cannot be reached puts a banner above the list and no Load more")
    func unreachable() async throws {
        let feed = Self.feed(MockTransport(script: [.failure(URLError(.cannotConnectToHost))]))

        await FeedCommand.refresh.perform(on: feed)
        let screen = FeedScreen(await feed.snapshot)

        #expect(screen.lines == ["! The server could not be reached. Check the connection and try again."])
    }

    @Test("with a store, the list read before stays on screen offline under a banner")
    func offlineWithStore() async throws {
        let store = ResponseStore(fileURL: FileManager.default.temporaryDirectory
            .appendingPathComponent("feed-screen-\(UUID().uuidString)/responses.sqlite"))
        let online = IntranetClient(transport: Self.server(), apiVersion: .v2_0, configuration: IntranetClientConfiguration(responseStore: store))
        await FeedCommand.refresh.perform(on: AnnouncementFeed(repository: online.announcements, pageSize: 2))

        let offline = IntranetClient(
            transport: MockTransport(script: [.failure(URLError(.cannotConnectToHost))]), apiVersion: .v2_0,
            configuration: IntranetClientConfiguration(responseStore: store))
        let feed = AnnouncementFeed(repository: offline.announcements, pageSize: 2)
        await FeedCommand.refresh.perform(on: feed)

        #expect(FeedScreen(await feed.snapshot).lines == [
            "! Offline: showing the announcements kept on this device.", "  1. News 1", "  2. News 2", "  [m] Load more",
        ])
    }

    @Test("commands are read as a person types them", arguments: [
        ("r", FeedCommand.refresh), ("m", .loadMore), ("o 12", .open(12)), ("12", .open(12)), ("c", .close), ("q", .quit),
    ])
    func parsesCommands(line: String, expected: FeedCommand) {
        #expect(FeedCommand(line) == expected)
    }

    @Test("anything else is not a command", arguments: ["", "x", "o", "o x", "r r", "-1x"])
    func rejectsOtherInput(line: String) {
        #expect(FeedCommand(line) == nil)
    }
}
