import Foundation
import IntranetClient
import RESTRepositoryTesting
import Testing

/// The samples of docs/swift-client.md, compiled and run in a target that depends on
/// IntranetClient and RESTRepositoryTesting only, as an app and its tests would.
@Suite("docs/swift-client.md sample")
struct ReadmeSampleTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Swift client's page, docs/swift-client.md, from its first heading to its end.
    private static func readmeText() throws -> String {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/swift-client.md"), encoding: .utf8)
        guard let start = text.range(of: "# The Swift client") else { throw CocoaError(.fileReadCorruptFile) }
        return String(text[start.lowerBound...])
    }

    @Test("every Swift block of docs/swift-client.md is compiled verbatim by this target")
    func readmeMatchesCompiledSample() throws {
        let readme = try Self.readmeText()
        let samples = try ["ReadmeSample.swift", "ReadmeTestingSample.swift", "ReadmeSpearalSample.swift", "ReadmeOfflineSample.swift", "ReadmePeopleSample.swift", "ReadmeSearchSample.swift",
            "ReadmeAcknowledgementSample.swift", "ReadmeLiveSample.swift", "ReadmeAttachmentSample.swift"].map {
            try String(contentsOf: Self.packageRoot.appendingPathComponent("Tests/IntranetClientReadmeTests/ReadmeSamples/\($0)"), encoding: .utf8)
        }

        let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
            .filter { $0.contains("import ") }

        #expect(blocks.count == 9)
        for block in blocks {
            #expect(samples.contains { $0.hasSuffix(block) }, "docs/swift-client.md block not compiled:\n\(block)")
        }
    }

    @Test("the acknowledgements sample says confirmed when the server answers, and kept on the device when it cannot be reached")
    func acknowledgementSampleRuns() async throws {
        let answered = MockTransport(script: [.text(#"{"round":2,"acknowledgedAt":"2026-11-26T10:00:00.000Z"}"#)])
        #expect(try await confirm(7, with: IntranetClient(transport: answered)) == "Confirmed (round 2)")
        #expect(await answered.requests.first?.method == .put)
        #expect(await answered.requests.first?.path == "/announcements/7/acknowledgement")
    }

    @Test("the attachments sample reports the share sent, and saves only what changed since the last time")
    func attachmentSampleRuns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("minutes.txt")
        try Data("Minutes of the March meeting".utf8).write(to: file)
        let copies = folder.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        let description = #"{"id":5,"name":"minutes.txt","mediaType":"text/plain; charset=utf-8","size":28,"sha256":"\#(String(repeating: "0", count: 64))","url":"/announcements/7/attachments/5/file"}"#
        let transport = MockTransport(script: [
            .text(description, status: .created), .text("[\(description)]"),
            MockResponse(headerFields: [.eTag: "\"v1\""], body: Data("Minutes of the March meeting".utf8)),
            .text("[\(description)]"), .status(.notModified),
        ])
        let intranet = IntranetClient(transport: transport)

        let attached = try await attach(file, to: 7, with: intranet) { _ in }
        let first = try await saveAttachments(of: 7, into: copies, saved: [:], with: intranet)
        let second = try await saveAttachments(of: 7, into: copies, saved: first, with: intranet)

        #expect(attached.id == 5)
        #expect(first == [5: "\"v1\""] && second == first)
        #expect(try Data(contentsOf: copies.appendingPathComponent("minutes.txt")) == Data("Minutes of the March meeting".utf8))
        #expect(await transport.requests.last?.headerFields[.ifNoneMatch] == "\"v1\"")
    }

    @Test("the people sample walks the org chart down to the reports and up to the top")
    func peopleSampleRuns() async throws {
        let person = { (id: Int, name: String, manager: Int?) in
            #"{"id":\#(id),"name":"\#(name)","email":"p\#(id)@brightwater.example","jobTitle":"T","department":"D","phone":null,"location":null,"managerId":\#(manager.map(String.init) ?? "null"),"userId":null"#
        }
        let tree = "[" + person(1, "Margit Olsen", nil) + #","reportIds":[3],"reports":["# + person(3, "Zoë Lefèvre", 1)
            + #","reportIds":[9,10],"reports":["# + person(9, "Kwame Mensah", 3) + #","reportIds":[],"reports":[]},"#
            + person(10, "Lena Fischer", 3) + #","reportIds":[],"reports":[]}]}]}]"#
        let transport = MockTransport(script: [.text(tree)])
        let (reports, managers) = try await team(of: 3, in: IntranetClient(transport: transport, apiVersion: .v2_0))
        #expect(reports == ["Kwame Mensah", "Lena Fischer"])
        #expect(managers == ["Margit Olsen"])
    }

    /// A server with three announcements that answers writes with a new ETag each time.
    private static func server(patchConflicts: Bool = false) -> MockTransport {
        MockTransport { request in
            switch request.method {
            case .get:
                let items = (1...3).map { #"{"id":\#($0),"title":"Title \#($0)"}"# }.joined(separator: ",")
                return .text("[\(items)]", headerFields: [.xTotal: "3"])
            case .post:
                return .text(#"{"id":4,"title":"Canteen closed","body":"<p>Friday only.</p>"}"#, status: .created, headerFields: [.eTag: "\"4.1\""])
            case .patch where patchConflicts:
                return .problem(.preconditionFailed)
            case .patch:
                return .text(#"{"id":4,"title":"Canteen closed","body":null}"#, headerFields: [.eTag: "\"4.2\""])
            default:
                return .status(.noContent)
            }
        }
    }

    @Test("the tour walks every title and a sorted page, then creates, patches and deletes guarded by the latest ETag")
    func tourRuns() async throws {
        let transport = Self.server()
        let intranet = IntranetClient(transport: transport, apiVersion: .v2_0)

        let titles = try await tour(intranet)

        #expect(titles == ["Title 1", "Title 2", "Title 3"])
        let sorted = await transport.requests.first { $0.queryDictionary["sort"] != nil }
        #expect(sorted?.queryDictionary["sort"] == "createdAt")
        #expect(sorted?.queryDictionary["order"] == "desc")
        let writes = await transport.requests.filter { $0.method != .get }
        #expect(writes.map(\.method) == [.post, .patch, .delete])
        #expect(writes.map { $0.headerFields[.ifMatch] } == [nil, "\"4.1\"", "\"4.2\""])
        #expect(makeIntranet()?.apiVersion == .v2_0)
    }

    @Test("the tour stops at a conflict instead of deleting what someone else changed")
    func tourStopsAtConflict() async throws {
        let transport = Self.server(patchConflicts: true)
        let intranet = IntranetClient(transport: transport, apiVersion: .v2_0)

        _ = try await tour(intranet)

        #expect(await transport.requests.map(\.method).filter { $0 != .get } == [.post, .patch])
    }

    @Test("the testing sample returns the scripted title")
    func testingSampleRuns() async throws {
        #expect(try await firstTitle() == "Hello")
    }
}

/// The Spearal sample against a server answering Spearal, as a filtering server would.
@Suite("docs/swift-client.md Spearal sample")
struct ReadmeSpearalSampleTests {
    /// A list item carrying only what the filter kept.
    private struct Headline: Encodable {
        var id: Int
        var title: String
    }

    @Test("headlines asks for titles in Spearal and reads them from partial announcements")
    func headlinesRun() async throws {
        let transport = MockTransport(script: [.spearal([Headline(id: 1, title: "One"), Headline(id: 2, title: "Two")])])
        let intranet = IntranetClient(transport: transport, apiVersion: .v2_0, format: .spearal)

        let titles = try await headlines(intranet)

        #expect(titles == ["One", "Two"])
        let sent = try #require(await transport.lastRequest)
        #expect(sent.headerFields[.accept] == "application/spearal")
        #expect(sent.headerFields[values: HTTPField.Name("Spearal-PropertyFilter")!] == ["intranet.AnnouncementSummary#title"])
        #expect(makeSpearalIntranet(URL(fileURLWithPath: "/")).format == .spearal)
    }
}

@Suite("docs/swift-client.md offline sample")
struct ReadmeOfflineSampleTests {
    @Test("the offline client keeps what it read, and storeOnly answers from it without a request")
    func storedHeadlinesComeFromTheDevice() async throws {
        let caches = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        let made = makeOfflineIntranet(try #require(URL(string: "http://127.0.0.1:1")), caches: caches)
        #expect(made.restClient.caching?.policy == .networkFirst)
        #expect(made.restClient.caching?.store.fileURL == caches.appendingPathComponent("intranet/responses.sqlite"))

        let server = MockTransport(script: [.text(#"[{"id":1,"title":"Hello"}]"#, headerFields: [.eTag: "\"list-1\""])])
        let store = ResponseStore(fileURL: caches.appendingPathComponent("sample.sqlite"))
        let intranet = IntranetClient(transport: server, apiVersion: .v2_0, configuration: IntranetClientConfiguration(responseStore: store))
        _ = try await intranet.announcements.read(page: 1, pageSize: 20)
        #expect(try await storedHeadlines(intranet) == ["Hello"])
        #expect(await server.requests.count == 1, "storeOnly sent nothing")
    }
}
