import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("README sample")
struct ReadmeSampleTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The "Swift client" section's text, from the standalone section file or from the
    /// package README once the section is merged into it.
    private static func readmeText() throws -> String {
        for name in ["README-section.md", "README.md"] {
            let url = packageRoot.appendingPathComponent(name)
            if let text = try? String(contentsOf: url, encoding: .utf8),
               let start = text.range(of: "## Swift client") {
                // Only this section: the rest of a merged README may hold other samples.
                let rest = text[start.upperBound...]
                let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
                return String(rest[..<end])
            }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    @Test("every Swift block of the README section is compiled verbatim by this target")
    func readmeMatchesCompiledSample() throws {
        let readme = try Self.readmeText()
        let samples = try ["ReadmeSample.swift", "ReadmeTestingSample.swift"].map {
            try String(contentsOf: Self.packageRoot.appendingPathComponent("Tests/IntranetClientTests/ReadmeSamples/\($0)"), encoding: .utf8)
        }

        let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
            .filter { $0.contains("import ") }

        #expect(blocks.count == 2)
        for block in blocks {
            #expect(samples.contains { $0.hasSuffix(block) }, "README block not compiled:\n\(block)")
        }
    }

    @Test("the tour sample runs against a fake server: every title, a sorted page, then create, patch, delete guarded by the latest ETag")
    func tourRuns() async throws {
        let lists = FakeIntranet.transport(count: 3)
        let transport = MockTransport { request in
            switch request.method {
            case .get:
                let (head, body) = try await lists.send(request.request, body: request.body)
                return MockResponse(status: head.status, headerFields: head.headerFields, body: body)
            case .post, .patch:
                let etag = request.method == .post ? "\"4\"" : "\"5\""
                return .json(AnnouncementV1.Detail(id: 4, title: "Canteen closed", body: nil), status: request.method == .post ? .created : .ok,
                             headerFields: .of([("ETag", etag)]))
            default: return .status(.noContent)
            }
        }
        let intranet = IntranetClient(transport: transport, apiVersion: .v2_0)

        let titles = try await tour(intranet)

        #expect(titles == ["Title 1", "Title 2", "Title 3"])
        let writes = await transport.requests.filter { $0.method != .get }
        #expect(writes.map(\.method) == [.post, .patch, .delete])
        #expect(writes[1].headerFields[.ifMatch] == "\"4\"")
        #expect(writes[2].headerFields[.ifMatch] == "\"5\"")
        let sorted = await transport.requests.first { $0.queryDictionary["sort"] != nil }
        #expect(sorted?.queryDictionary["order"] == "desc")
        #expect(makeIntranet()?.apiVersion == .v2_0)
    }

    @Test("the testing sample returns the scripted title")
    func testingSampleRuns() async throws {
        #expect(try await firstTitle() == "Hello")
    }
}
