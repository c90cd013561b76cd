import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import IntranetTerminal

@Suite("Editor commands")
struct EditorCommandTests {
    private func detail(_ id: Int, _ title: String, body: String? = nil, etag: String) -> MockResponse {
        .json(AnnouncementV2.Detail(id: id, title: title, body: body, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0)),
              headerFields: [.eTag: etag], encoder: IntranetJSON.encoder())
    }

    private func json(_ body: Data?) throws -> [String: String?] {
        let object = try JSONSerialization.jsonObject(with: try #require(body)) as? [String: Any]
        return try #require(object).mapValues { $0 as? String }
    }

    @Test("create sends the title and the body read from standard input, and prints only the new id")
    func createFromStandardInput() async throws {
        let transport = MockTransport(script: [detail(7, "Fire drill", body: "<p>10:00</p>", etag: "\"7.1.v2\"")])
        let terminal = CapturedTerminal(input: Data("<p>10:00</p>".utf8))

        let result = await runIntranet(["announcements", "create", "--title", "Fire drill", "--body", "-"], transport: transport, terminal: terminal)

        let sent = try #require(await transport.lastRequest)
        #expect(sent.method == .post)
        #expect(sent.path == "/announcements")
        #expect(try json(sent.body) == ["title": "Fire drill", "body": "<p>10:00</p>"])
        #expect(result.status == 0)
        #expect(result.output == "7\n")
    }

    @Test("create reads --body-file, and a missing file is a usage error before any request")
    func createFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString).html")
        try Data("<p>From a file</p>".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = MockTransport(script: [detail(8, "T", etag: "\"8.1.v2\"")])
        let unused = MockTransport(script: [])

        let result = await runIntranet(["announcements", "create", "--title", "T", "--body-file", file.path], transport: transport)
        let missing = await runIntranet(["announcements", "create", "--title", "T", "--body-file", "/nonexistent/body.html"], transport: unused)

        #expect(try json(await transport.lastRequest?.body)["body"] == "<p>From a file</p>")
        #expect(result.output == "8\n")
        #expect(missing.status == 64)
        #expect(missing.errors == "intranet: cannot read the body file “/nonexistent/body.html”: no such file\n")
        #expect(await unused.requests.isEmpty)
    }

    @Test("update reads the announcement afresh, then sends only the given fields as a merge patch with If-Match")
    func updateSendsOnlyWhatWasGiven() async throws {
        let transport = MockTransport(script: [detail(7, "Old", body: "<p>keep</p>", etag: "\"7.1.v2\""), detail(7, "New", body: "<p>keep</p>", etag: "\"7.2.v2\"")])

        let result = await runIntranet(["announcements", "update", "7", "--title", "New"], transport: transport)

        let requests = await transport.requests
        #expect(requests.map(\.method) == [.get, .patch])
        #expect(requests[1].path == "/announcements/7")
        #expect(requests[1].headerFields[.ifMatch] == "\"7.1.v2\"")
        #expect(requests[1].headerFields[.contentType] == "application/merge-patch+json")
        #expect(String(decoding: try #require(requests[1].body), as: UTF8.self) == #"{"title":"New"}"#)
        #expect(result.status == 0)
        #expect(result.output == "Updated announcement 7.\n")
    }

    @Test("--clear-body sends body null; --if-match skips the read and sends the given tag")
    func clearBodyAndIfMatch() async throws {
        let transport = MockTransport(script: [detail(7, "T", etag: "\"7.3.v2\"")])

        let result = await runIntranet(["announcements", "update", "7", "--clear-body", "--if-match", "\"7.2.v2\""], transport: transport)

        let requests = await transport.requests
        #expect(requests.count == 1)
        #expect(requests[0].headerFields[.ifMatch] == "\"7.2.v2\"")
        #expect(String(decoding: try #require(requests[0].body), as: UTF8.self) == #"{"body":null}"#)
        #expect(result.status == 0)
    }

    @Test("delete --yes sends one DELETE and says so")
    func deleteWithYes() async {
        let transport = MockTransport(script: [.status(.noContent)])

        let result = await runIntranet(["announcements", "delete", "7", "--yes"], transport: transport)

        #expect(await transport.requests.map(\.method) == [.delete])
        #expect(await transport.lastRequest?.headerFields[.ifMatch] == nil)
        #expect(result.output == "Deleted announcement 7.\n")
    }

    @Test("on a terminal delete asks with the title; yes deletes with If-Match, anything else keeps it (status 1)")
    func deleteAsks() async {
        let agreeing = MockTransport(script: [detail(7, "Fire drill", etag: "\"7.1.v2\""), .status(.noContent)])
        let refusing = MockTransport(script: [detail(7, "Fire drill", etag: "\"7.1.v2\"")])

        let yes = await runIntranet(["announcements", "delete", "7"], transport: agreeing, terminal: CapturedTerminal(lines: ["y"]), isInputTerminal: true)
        let no = await runIntranet(["announcements", "delete", "7"], transport: refusing, terminal: CapturedTerminal(lines: [""]), isInputTerminal: true)

        #expect(yes.errors == "Delete announcement 7 “Fire drill”? [y/N] ")
        #expect(await agreeing.requests.map(\.method) == [.get, .delete])
        #expect(await agreeing.lastRequest?.headerFields[.ifMatch] == "\"7.1.v2\"")
        #expect(yes.status == 0)
        #expect(await refusing.requests.map(\.method) == [.get])
        #expect(no.status == 1)
        #expect(no.errors.hasSuffix("intranet: announcement 7 was not deleted\n"))
    }

    @Test("without a terminal on standard input and without --yes, delete refuses before any request")
    func deleteRefusesWithoutTerminal() async {
        let transport = MockTransport(script: [])

        let result = await runIntranet(["announcements", "delete", "7"], transport: transport, isInputTerminal: false)

        #expect(result.status == 64)
        #expect(result.errors == "intranet: not deleting announcement 7: standard input is not a terminal, so nobody can confirm; pass --yes to delete without asking\n")
        #expect(await transport.requests.isEmpty)
    }

    @Test("--verbose logs each request with method, URL, version and status on stderr")
    func verboseLog() async {
        let transport = MockTransport(script: [detail(2, "B", etag: "\"2.1.v2\"")])

        let result = await runIntranet(["announcements", "show", "2", "--verbose", "--server", "http://intranet.example:9000/"], transport: transport)

        #expect(result.errors.hasPrefix("GET http://intranet.example:9000/announcements/2 (Accept-Version: 3.0) → 200 in "))
        #expect(result.errors.filter { $0 == "\n" }.count == 1)
    }
}
