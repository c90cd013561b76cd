import Foundation
import HTTPTypes
import HummingbirdTesting
import Spearal
import Testing
@testable import IntranetServer

/// Announcements written in Markdown over the API (3.0's `markdown`): GitHub's tables,
/// strikethrough and autolinks made HTML; raw HTML never reaching the body; the source shown to
/// editors only; `body` and `markdown` together refused; an HTML body clearing the source.
@Suite("Markdown bodies over the API")
struct MarkdownTests {
    static let rota = "Rota for **Monday**:\n\n| Day | Who |\n|-----|-----|\n| Mon | Ana |\n| Tue | ~~Bo~~ Cy |\n\nSee https://rota.example/week"

    /// A body without the line break cmark-gfm ends its HTML with.
    static func trimmed(_ body: Any?) -> String? {
        (body as? String)?.trimmingCharacters(in: .newlines)
    }

    @Test("tables, strikethrough and autolinks become HTML; the body is what readers get and the source is kept for editors", arguments: TestStorage.all)
    func rendered(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let created = try await client.send(.post, "/announcements", json: #"{"title":"Rota","markdown":\#(Body.string(Self.rota))}"#)
            #expect(created.status == .created, "\(created.text)")
            let detail = try created.object()
            let body = try #require(detail["body"] as? String)
            #expect(body.hasPrefix("<p>Rota for <strong>Monday</strong>:</p>"), "\(body)")
            #expect(body.contains("<table>") && body.contains("<thead>") && body.contains("<th>Day</th>") && body.contains("<th>Who</th>"), "\(body)")
            #expect(body.contains("<td>Mon</td>") && body.contains("<td>Ana</td>") && body.contains("<del>Bo</del> Cy"), "\(body)")
            #expect(body.contains("<a href=\"https://rota.example/week\">https://rota.example/week</a>"), "\(body)")
            #expect(!body.contains("|-----|"))
            #expect(detail["markdown"] as? String == Self.rota)
            let id = try #require(detail["id"] as? Int)
            let read = try await client.send(.get, "/announcements/\(id)", as: .reader).object()
            #expect(read["body"] as? String == body, "readers get the same HTML")
            #expect(try await client.send(.get, "/announcements/\(id)", version: "1.0").object()["body"] as? String == body)
        }
    }

    @Test("raw HTML in Markdown never reaches the body: no script, no event handler, no javascript: link, on the API or the page")
    func rawHTMLDropped() async throws {
        let markdown = """
            Hello <script>alert(1)</script> there.

            <img src="x" onerror="alert(2)">

            <div onclick="alert(3)">click</div>

            [a link](javascript:alert(4)) and <img src="y" onerror="alert(5)"> inline.

            <iframe src="https://evil.example/"></iframe>
            """
        try await withTestServer(mode: .live) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Nasty","markdown":\#(Body.string(markdown))}"#)
            let body = try #require(try await client.send(.get, "/announcements/\(id)", as: .editor).object()["body"] as? String)
            let page = try await client.page("/announcements/\(id)").text.withoutSiteScript
            for text in [body, page] {
                for forbidden in ["<script", "onerror", "onclick", "javascript:", "<iframe", "evil.example"] {
                    #expect(!text.lowercased().contains(forbidden), "\(forbidden) in \(text)")
                }
            }
            #expect(body.contains("Hello") && body.contains("there.") && body.contains("a link"), "\(body)")
            #expect(try await client.send(.get, "/announcements/\(id)", as: .editor).object()["markdown"] as? String == markdown, "the source is kept as written")
        }
    }

    @Test("markdown is shown to editors and admins in 3.0 only: not to readers, not signed out, not in 2.0 or 1.0, not in lists; null for an HTML body")
    func shownToEditorsOnly() async throws {
        try await withTestServer { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Written in Markdown","markdown":"*Hi*"}"#)
            for caller in [Caller.editor, .admin] {
                #expect(try await client.send(.get, "/announcements/\(id)", as: caller).object()["markdown"] as? String == "*Hi*")
                #expect(try await client.send(.get, "/announcements/\(id)", version: "3.0", headers: [.accept: "application/spearal"], as: caller).bean().string("markdown") == "*Hi*")
                for version in ["1.0", "2.0"] {
                    let old = try await client.send(.get, "/announcements/\(id)", version: version, as: caller).object()
                    #expect(old["markdown"] == nil, "\(version)")
                    #expect(Self.trimmed(old["body"]) == "<p><em>Hi</em></p>", "\(version)")
                }
                let list = try await client.send(.get, "/announcements?max=100", as: caller)
                #expect(try list.objects().allSatisfy { $0["markdown"] == nil })
            }
            for caller in [Caller.reader, .anonymous] {
                let detail = try await client.send(.get, "/announcements/\(id)", as: caller)
                #expect(detail.headers[.apiVersion] == "3.0")
                #expect(try detail.object()["markdown"] == nil)
                #expect(try await client.send(.get, "/announcements/\(id)", headers: [.accept: "application/spearal"], as: caller).bean().names.contains("markdown") == false)
            }
            #expect(try await client.send(.get, "/announcements/2", as: .editor).object()["markdown"] is NSNull, "a body written as HTML has no source")
        }
    }

    @Test("body and markdown together, or markdown that is not a string, are 422 naming markdown on POST, PUT and PATCH, and change nothing", arguments: PublishingValidationTests.writes)
    func refused(method: HTTPRequest.Method, path: String) async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements/2", as: .editor).text
            for members in [#""body":"<p>x</p>","markdown":"*x*""#, #""body":null,"markdown":"*x*""#, #""markdown":5"#, #""markdown":["x"]"#] {
                let response = try await client.send(method, path, json: #"{"title":"Changed",\#(members)}"#)
                #expect(response.status == .unprocessableContent, "\(members)")
                #expect(try response.errorFields() == ["markdown"], "\(members): \(response.text)")
            }
            #expect(try await client.send(.get, "/announcements/2", as: .editor).text == before)
            #expect(try await client.send(.get, "/announcements?max=100", as: .editor).headers[.total] == "6")
        }
    }

    @Test("a later HTML body (PATCH, PUT, a 1.0 app's PUT, body null) clears markdown; a PATCH of the title keeps it; new markdown replaces both", arguments: TestStorage.all)
    func htmlClearsSource(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            func markdownOf(_ id: Int) async throws -> Any? {
                try await client.send(.get, "/announcements/\(id)", as: .editor).object()["markdown"] ?? "absent"
            }
            let writes: [(HTTPRequest.Method, String?, String)] = [
                (.patch, nil, #"{"body":"<p>Now HTML</p>"}"#),
                (.put, nil, #"{"title":"Replaced","body":"<p>Now HTML</p>"}"#),
                (.put, "1.0", #"{"title":"From an old app","body":"<p>Now HTML</p>"}"#),
                (.patch, nil, #"{"body":null}"#),
            ]
            for (method, version, json) in writes {
                let id = try await client.createAnnouncement(#"{"title":"Source","markdown":"**bold**"}"#)
                #expect(try await client.send(.patch, "/announcements/\(id)", json: #"{"title":"Renamed"}"#).status == .ok)
                #expect(try await markdownOf(id) as? String == "**bold**", "a title change keeps the source")
                let response = try await client.send(method, "/announcements/\(id)", version: version, json: json)
                #expect(response.status == .ok, "\(method) \(json): \(response.text)")
                #expect(try await markdownOf(id) is NSNull, "\(method) \(version ?? "3.0") \(json)")
                let replaced = try await client.send(.patch, "/announcements/\(id)", json: ##"{"markdown":"# Again"}"##).object()
                #expect(replaced["markdown"] as? String == "# Again" && (replaced["body"] as? String)?.hasPrefix("<h1>Again</h1>") == true, "\(replaced)")
            }
        }
    }

    @Test("a Spearal write may send markdown instead of body: the body is made from it, and both together are refused naming markdown")
    func spearalWrite() async throws {
        try await withTestServer { _, client in
            let created = try await client.sendSpearal(.post, "/announcements", properties: [("title", .string("Via Spearal")), ("markdown", .string(Self.rota))])
            #expect(created.status == .created, "\(created.text)")
            let bean = try created.bean()
            let id = try #require(bean.int("id"))
            #expect(bean.string("markdown") == Self.rota)
            let json = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            #expect((json["body"] as? String)?.contains("<td>Ana</td>") == true, "\(json)")
            #expect(json["markdown"] as? String == Self.rota)

            let both = try await client.sendSpearal(.patch, "/announcements/\(id)", properties: [("body", .string("<p>x</p>")), ("markdown", .string("*x*"))])
            #expect(both.status == .unprocessableContent)
            #expect(try both.errorFields() == ["markdown"], "\(both.text)")
            // One of them null is still both: which body was meant is not clear (the OpenAPI
            // document says so, and its fuzzer checks it).
            let oneNull = try await client.send(.patch, "/announcements/\(id)", json: #"{"body":null,"markdown":null}"#)
            #expect(oneNull.status == .unprocessableContent)
            #expect(try oneNull.errorFields() == ["markdown"], "\(oneNull.text)")
            let patched = try await client.sendSpearal(.patch, "/announcements/\(id)", properties: [("markdown", .string("~~gone~~"))])
            #expect(patched.status == .ok)
            #expect(Self.trimmed(try await client.send(.get, "/announcements/\(id)", as: .editor).object()["body"]) == "<p><del>gone</del></p>")
        }
    }
}
