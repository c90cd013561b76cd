import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// What pages write of people's text, escaped by Unicode scalar.
@Suite("The web front end: escaping")
struct WebEscapingTests {
    @Test("a quote followed by a combining mark cannot end an attribute: in the search box, the header's and the editor's form")
    func combiningQuote() async throws {
        try await withTestServer { _, client in
            let hostile = "x\"\u{301} autofocus data-x=\""
            let query = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let raw = "\"\u{301} autofocus"
            let escaped = "x&quot;\u{301} autofocus"
            let search = try await client.page("/search?q=\(query)").text
            let searchIsRaw = search.contains(raw)
            let searchIsEscaped = search.contains(escaped)
            #expect(!searchIsRaw && searchIsEscaped, "the search page")
            let id = try await client.createAnnouncement(Body.object(["title": Body.string(hostile)]))
            let form = try await client.page("/announcements/\(id)/edit", as: .editor).text
            let formIsRaw = form.contains(raw)
            let formIsEscaped = form.contains(escaped)
            #expect(!formIsRaw && formIsEscaped, "the editor's form")
        }
    }

    @Test("every template asks for escaping by Unicode scalar")
    func everyTemplate() throws {
        let folder = try #require(Bundle.module.url(forResource: "web", withExtension: nil) ?? Self.sources)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mustache") }
        #expect(names.count >= 16)
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(text.hasPrefix("{{% CONTENT_TYPE: \(ScalarHTMLContentType.name) }}\n"), "\(name)")
        }
    }

    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/IntranetServer/Resources/web")
}
