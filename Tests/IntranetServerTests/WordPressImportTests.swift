import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
@testable import IntranetServer

/// `POST /imports/wordpress` and the importer behind it, with WXR fixtures written for these
/// tests (Fixtures/wordpress): both editors, shortcodes, every status, CDATA split across
/// sections, entities, non-Latin text, emoji in titles.
///
/// One piece, past 300 lines: every test reads the same fixtures through the same route and report.
@Suite("WordPress import")
struct WordPressImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/wordpress")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// Sends an export as `user` (the admin unless told).
    static func post(
        _ data: Data, query: String = "", contentType: String = "application/xml", as user: TestUser = .admin,
        client: any TestClientProtocol
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: contentType]
        headers[.authorization] = "Bearer \(user.token)"
        return try await client.execute(uri: "/imports/wordpress" + query, method: .post, headers: headers, body: ByteBuffer(bytes: data))
    }

    /// Every announcement an admin sees, by title.
    /// Every announcement by title, live ones and (for editors and admins) drafts.
    static func announcements(_ client: any TestClientProtocol, as user: TestUser = .admin) async throws -> [String: [String: Any]] {
        var list = try await client.send(.get, "/announcements?per_page=100", headers: [.acceptVersion: "1.0"], as: .user(user)).objects()
        if user == .admin || user == .editor {
            list += try await client.send(.get, "/announcements?per_page=100&status=draft", headers: [.acceptVersion: "1.0"], as: .user(user)).objects()
        }
        var byTitle: [String: [String: Any]] = [:]
        for item in list {
            let id = try #require(item["id"] as? Int)
            byTitle[try #require(item["title"] as? String)] = try await client.send(.get, "/announcements/\(id)", as: .user(user)).object()
        }
        return byTitle
    }

    @Test("published posts become announcements, and the report counts everything else", arguments: TestStorage.all)
    func firstImport(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let answer = try await Self.post(try Self.fixture("harbour-2024.xml"), client: client)
            #expect(answer.status == .ok, "\(answer.text)")
            let report = try answer.object()
            #expect(report["site"] as? String == "https://intranet.harbour-works.example")
            #expect(report["wxrVersion"] as? String == "1.2")
            #expect(report["dryRun"] as? Bool == false)
            #expect(report["created"] as? Int == 9)
            #expect(report["updated"] as? Int == 0)
            #expect(report["unchanged"] as? Int == 0)
            #expect(report["bodiesCleaned"] as? Int == 1)
            #expect(report["skipped"] as? [String: Int] == [
                "draft": 1, "pending": 1, "future": 1, "trash": 1, "private": 1, "passwordProtected": 1,
                "page": 1, "attachment": 1, "navMenuItem": 1, "otherType": 1, "comments": 2,
            ])
            let authors = try #require(report["authors"] as? [[String: Any]])
            #expect(authors.map { $0["login"] as? String } == ["maria", "Editor"])
            #expect(authors.map { $0["hasAccount"] as? Bool } == [false, true], "the test users include 'editor'")
            let shortened = try #require((report["titlesShortened"] as? [[String: Any]])?.first)
            #expect(shortened["postId"] as? Int == 107)
            let shortTitle = try #require(shortened["title"] as? String)
            #expect(shortTitle.unicodeScalars.count <= 255 && shortTitle.hasSuffix("update…"))
            #expect((report["titlesMade"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == [
                "When the title is empty the first words of the body make one…", "(untitled)",
            ])

            let stored = try await Self.announcements(client)
            #expect(stored.count == 6 + 9)
            let block = try #require(stored["Canteen reopens – new menu & prices"], "entities in titles are decoded")
            #expect(block["body"] as? String == "<p>The canteen reopens on <strong>Monday</strong>.</p>\n\n<ul><li>Soup</li><li>Salad</li></ul>")
            #expect(block["createdAt"] as? String == "2024-03-04T08:15:00.000Z", "from wp:post_date_gmt")
            #expect(block["updatedAt"] as? String == "2024-03-05T09:00:00.000Z", "from wp:post_modified_gmt")
            let classic = try #require(stored["Classic editor post"])
            #expect(classic["body"] as? String == """
                <p>First paragraph, line one<br>
                line two of the same paragraph.</p>
                <p>Second paragraph with <a href="https://harbour-works.example/map">a map</a>.</p>
                <pre>code line 1

                code line 3</pre>
                <ul>
                <li>one</li>

                <li>two</li>
                </ul>
                <table>
                <tr><td>a</td>

                <td>b</td></tr>
                </table>
                <p>Last words.</p>
                """)
            #expect(classic["createdAt"] as? String == "2019-06-01T12:30:00.000Z", "a zero GMT date falls back to wp:post_date")
            let pictures = try #require(stored["Pictures from the quay 🎉⚓"])
            let body = try #require(pictures["body"] as? String)
            #expect(body.contains(#"<figure><img alt="The quay" height="200" src="https://intranet.harbour-works.example/wp-content/uploads/quay.jpg" width="300">"#))
            #expect(body.contains("<figcaption>The new quay at dawn</figcaption>"))
            #expect(body.contains(#"<a href="https://video.harbour-works.example/watch/42">"#))
            #expect(body.contains(#"<a href="https://intranet.harbour-works.example/wp-content/uploads/tour.mp4">"#))
            #expect(body.contains(#"<a href="https://intranet.harbour-works.example/wp-content/uploads/ceo.mp3">"#))
            #expect(body.contains(#"<p>[gallery ids="1,2,3"] stays as text.</p>"#))
            #expect(stored["Security notice"]?["body"] as? String == "<p>Read this <a>now</a></p>")
            #expect(stored["CDATA split"]?["body"] as? String == "<p>Code sample: a[b[0]] &gt; 1</p>")
            #expect(stored["Привет 日本 — news"]?["body"] as? String == "<p>日本語のお知らせ — Привет, команда! مرحبا</p>")
            for hidden in ["Draft post", "Private board minutes", "Password-protected plans", "About us", "quay.jpg", "Home"] {
                #expect(stored[hidden] == nil, "\(hidden) must not be imported")
            }
        }
    }

    @Test("importing the same export again changes nothing; a newer export updates, adds and withdraws", arguments: TestStorage.all)
    func repeatable(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            _ = try await Self.post(try Self.fixture("harbour-2024.xml"), client: client)
            let before = try await client.send(.get, "/announcements?per_page=100", as: .admin)

            let again = try await Self.post(try Self.fixture("harbour-2024.xml"), client: client).object()
            #expect(again["created"] as? Int == 0)
            #expect(again["unchanged"] as? Int == 9)
            let after = try await client.send(.get, "/announcements?per_page=100", as: .admin)
            #expect(after.text == before.text)
            #expect(after.headers[.eTag] == before.headers[.eTag])

            let newer = try await Self.post(try Self.fixture("harbour-2025.xml"), client: client).object()
            #expect(newer["created"] as? Int == 1)
            #expect(newer["updated"] as? Int == 1)
            #expect(newer["unchanged"] as? Int == 7)
            #expect(newer["withdrawn"] as? Int == 1)
            let stored = try await Self.announcements(client)
            #expect(stored.count == 6 + 10)
            #expect((stored["Canteen reopens – new menu & prices"]?["body"] as? String)?.contains("Tuesday") == true)
            #expect(stored["Happy new year"] != nil)
            let withdrawn = try #require(stored["Security notice"]?["id"] as? Int)
            #expect(try await client.send(.get, "/announcements/\(withdrawn)").status == .notFound, "a post made a draft is no longer public")
            #expect(try await client.send(.get, "/announcements/\(withdrawn)", as: .reader).status == .notFound)
        }
    }

    @Test("a dry run reports the same as the import and changes nothing")
    func dryRun() async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements?per_page=100", as: .admin).text
            var dry = try await Self.post(try Self.fixture("harbour-2024.xml"), query: "?dryRun=true", client: client).object()
            #expect(dry["dryRun"] as? Bool == true)
            #expect(try await client.send(.get, "/announcements?per_page=100", as: .admin).text == before)
            var real = try await Self.post(try Self.fixture("harbour-2024.xml"), client: client).object()
            dry["dryRun"] = nil
            real["dryRun"] = nil
            #expect(NSDictionary(dictionary: dry).isEqual(to: real))
        }
    }

    @Test("with includePrivate, private and password-protected posts are readable only by the importing admin; includePages adds pages")
    func privatePosts() async throws {
        try await withTestServer { _, client in
            let report = try await Self.post(try Self.fixture("harbour-2024.xml"), query: "?includePrivate=true&includePages=true", client: client).object()
            #expect(report["created"] as? Int == 12)
            let stored = try await Self.announcements(client)
            let minutes = try #require(stored["Private board minutes"])
            let plans = try #require(stored["Password-protected plans"])
            #expect(stored["About us"]?["readers"] is NSNull, "a published page is for everyone")
            let adminID = try #require(try await client.send(.get, "/users", as: .admin).objects().first { $0["username"] as? String == "admin" }?["id"] as? Int)
            for restricted in [minutes, plans] {
                #expect(restricted["readers"] as? [Int] == [adminID])
                let id = try #require(restricted["id"] as? Int)
                #expect(try await client.send(.get, "/announcements/\(id)", as: .reader).status == .notFound)
                #expect(try await client.send(.get, "/announcements/\(id)").status == .notFound)
            }
        }
    }

    @Test("a WXR 1.0 export imports too")
    func versionOne() async throws {
        try await withTestServer { _, client in
            let report = try await Self.post(try Self.fixture("oldsite-wxr-1.0.xml"), client: client).object()
            #expect(report["wxrVersion"] as? String == "1.0")
            #expect(report["site"] as? String == "https://old.harbour-works.example")
            #expect(report["created"] as? Int == 1)
            #expect(try await Self.announcements(client)["From 2011"]?["body"] as? String == "<p>Hello from the old site.</p>")
        }
    }

    /// Exports of the same site as WordPress and WordPress.com write them: `http` or `https`
    /// namespace URIs, export versions 1.1 and 1.2 (1.0 has a fixture of its own).
    static let namespaceVariants: [(file: String, version: String)] = [
        ("harbour-2024-wordpress-com.xml", "1.2"), ("harbour-2024-wxr-1.1.xml", "1.1"),
    ]

    @Test("an https (WordPress.com) or WXR 1.1 export imports to the same announcements as the http 1.2 one", arguments: namespaceVariants)
    func namespaceURIs(file: String, version: String) async throws {
        let http = Mutex<[String: [String?]]>([:])
        let unseeded: (inout AppConfiguration) -> Void = { $0.seedsDatabase = false }
        try await withTestServer(configure: unseeded) { _, client in
            _ = try await Self.post(try Self.fixture("harbour-2024.xml"), client: client)
            let imported = try await Self.announcements(client).mapValues { [$0["body"] as? String, $0["createdAt"] as? String] }
            http.withLock { $0 = imported }
        }
        let expected = http.withLock { $0 }
        try await withTestServer(configure: unseeded) { _, client in
            let answer = try await Self.post(try Self.fixture(file), client: client)
            #expect(answer.status == .ok, "\(answer.text)")
            let report = try answer.object()
            #expect(report["wxrVersion"] as? String == version)
            #expect(report["created"] as? Int == 9)
            let imported = try await Self.announcements(client).mapValues { [$0["body"] as? String, $0["createdAt"] as? String] }
            #expect(imported.count == 9)
            #expect(imported == expected)
        }
    }

    @Test("a namespace is WordPress's by the URIs WordPress and WordPress.com write, not by a look-alike")
    func namespaceRecognition() {
        for uri in ["http://wordpress.org/export/1.0/", "https://wordpress.org/export/1.1/", "https://wordpress.org/export/1.2/"] {
            #expect(WXRReader.space(ofNamespace: uri) == .wordpress, "\(uri)")
        }
        for uri in ["https://wordpress.org/export/1.2/excerpt/", "https://wordpress.org/export/", "ftp://wordpress.org/export/1.2/",
                    "https://wordpress.org.evil.example/export/1.2/", "https://example.com/wordpress.org/export/1.2/"] {
            #expect(WXRReader.space(ofNamespace: uri) == .other, "\(uri)")
        }
        #expect(WXRReader.space(ofNamespace: "https://purl.org/rss/1.0/modules/content/") == .content)
        #expect(WXRReader.space(ofNamespace: "http://purl.org/dc/elements/1.1/") == .dublinCore)
    }

    static let wxrHead = #"<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><wp:wxr_version>1.2</wp:wxr_version><wp:base_blog_url>https://x.example</wp:base_blog_url>"#
    static let goodItem = "<item><title>Imported</title><wp:post_id>1</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>"

    static let malformed: [(name: String, file: String, mentions: String)] = [
        ("not XML", "This is not XML at all", "line 1"),
        ("empty", "", "empty"),
        ("not WXR", #"<?xml version="1.0"?><rss version="2.0"><channel><title>A blog</title><item><title>x</title></item></channel></rss>"#, "not a WordPress export"),
        ("another document", #"<?xml version="1.0"?><html><body>hi</body></html>"#, "not <rss>"),
        ("truncated", wxrHead + goodItem + "<item><title>Cut he", "line 1"),
        ("undefined entity", wxrHead + goodItem + "<item><title>&nosuch;</title></item></channel></rss>", "nosuch"),
        ("entity bomb", #"<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><rss><channel><title>&d;&d;&d;</title></channel></rss>"#, "entity"),
        ("external entity", #"<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss><channel><title>&xxe;</title></channel></rss>"#, "DTD"),
        ("newer WXR", #"<?xml version="1.0"?><rss xmlns:wp="http://wordpress.org/export/2.0/"><channel><wp:wxr_version>2.0</wp:wxr_version></channel></rss>"#, "1.0 to 1.2"),
        ("a text node over 10 MB", wxrHead + goodItem + "<item><title>Huge</title><content:encoded>" + String(repeating: "x", count: 10_500_000) + "</content:encoded></item></channel></rss>", "line 1"),
    ]

    @Test("a malformed or hostile file is a 400 naming line and column, and nothing is imported", arguments: malformed)
    func refused(name: String, file: String, mentions: String) async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements?per_page=100", as: .admin).text
            let answer = try await Self.post(Data(file.utf8), client: client)
            #expect(answer.status == .badRequest, "\(answer.text.prefix(300))")
            let detail = try #require(try answer.object()["detail"] as? String)
            #expect(detail.contains(mentions), "\(detail)")
            #expect(detail.contains(/line \d+, column \d+/), "\(detail)")
            #expect(!detail.contains("/tmp"), "no server path in the answer")
            #expect(try await client.send(.get, "/announcements?per_page=100", as: .admin).text == before)
        }
    }

    @Test("a file whose first items are fine but which breaks later imports nothing at all", arguments: TestStorage.all)
    func oneTransaction(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let items = (1...50).map { "<item><title>Post \($0)</title><wp:post_id>\($0)</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>" }
            let answer = try await Self.post(Data((Self.wxrHead + items.joined() + "<item><title>&broken;</title></item></channel></rss>").utf8), client: client)
            #expect(answer.status == .badRequest)
            #expect(try await client.send(.get, "/announcements", as: .admin).headers[.total] == "6")
        }
    }

    @Test("only admins import: 401 signed out, 403 for an editor; XML only (415); bodies above the normal limit are fine")
    func access() async throws {
        try await withTestServer { _, client in
            let file = Data((Self.wxrHead + Self.goodItem + "</channel></rss>").utf8)
            var signedOut: HTTPFields = [.contentType: "application/xml"]
            signedOut[.accept] = "application/json"
            let anonymous = try await client.execute(uri: "/imports/wordpress", method: .post, headers: signedOut, body: ByteBuffer(bytes: file))
            #expect(anonymous.status == .unauthorized)
            #expect(try await Self.post(file, as: .editor, client: client).status == .forbidden)
            #expect(try await Self.post(file, contentType: "application/json", client: client).status == .unsupportedMediaType)
            #expect(try await Self.post(file, contentType: "text/xml; charset=utf-8", client: client).status == .ok)
            let big = Data((Self.wxrHead + String(repeating: " ", count: 3_000_000) + Self.goodItem + "</channel></rss>").utf8)
            #expect(big.count > AppConfiguration.defaultMaxBodySize)
            #expect(try await Self.post(big, client: client).status == .ok)
        }
    }

    @Test("IMPORT_MAX_BYTES: larger uploads are 413 and nothing is imported; the setting is checked")
    func limit() async throws {
        try await withTestServer(configure: { $0.importMaxBytes = 1024 * 1024 }) { _, client in
            let big = Data((Self.wxrHead + String(repeating: " ", count: 1024 * 1024) + Self.goodItem + "</channel></rss>").utf8)
            let answer = try await Self.post(big, client: client)
            #expect(answer.status == .contentTooLarge)
            #expect(try await client.send(.get, "/announcements", as: .admin).headers[.total] == "6")
        }
        try expectSetting("IMPORT_MAX_BYTES", "10485760", gives: 10_485_760, defaultValue: AppConfiguration.defaultImportMaxBytes) { $0.importMaxBytes }
        try expectSetting("IMPORT_MAX_BYTES", "1000", gives: nil, defaultValue: AppConfiguration.defaultImportMaxBytes) { $0.importMaxBytes }
        try expectSetting("IMPORT_MAX_BYTES", "lots", gives: nil, defaultValue: AppConfiguration.defaultImportMaxBytes) { $0.importMaxBytes }
    }

    @Test("a reserved progress id follows one import, read without a session; unknown, reused or malformed ids are refused")
    func progress() async throws {
        try await withTestServer { _, client in
            let file = try Self.fixture("harbour-2024.xml")
            let reserved = try await client.send(.post, "/imports/progress", as: .admin)
            #expect(reserved.status == .created)
            let id = try #require(try reserved.object()["id"] as? String)
            #expect(id.count == 32)
            #expect(reserved.headers[.location] == "/imports/progress/\(id)")
            #expect(try await client.send(.get, "/imports/progress/\(id)").object()["stage"] as? String == "waiting")
            #expect(try await client.send(.post, "/imports/progress", as: .editor).status == .forbidden)

            var headers: HTTPFields = [.contentType: "application/xml", .authorization: "Bearer \(TestUser.admin.token)"]
            headers[HTTPField.Name("Import-Progress-Id")!] = id
            let answer = try await client.execute(uri: "/imports/wordpress", method: .post, headers: headers, body: ByteBuffer(bytes: file))
            #expect(answer.status == .ok)

            let status = try await client.send(.get, "/imports/progress/\(id)", as: .anonymous)
            #expect(status.status == .ok)
            let body = try status.object()
            #expect(body["stage"] as? String == "finished")
            #expect(body["itemsRead"] as? Int == 19)
            #expect(body["bytesReceived"] as? Int == file.count)
            #expect(body["bytesParsed"] as? Int == file.count)
            #expect(try await client.send(.get, "/imports/progress/0123456789abcdef0123456789abcdef").status == .notFound)
            #expect(try await client.send(.get, "/imports/progress/not-an-id").status == .notFound)

            let reused = try await client.execute(uri: "/imports/wordpress", method: .post, headers: headers, body: ByteBuffer(bytes: file))
            #expect(reused.status == .conflict)
            headers[HTTPField.Name("Import-Progress-Id")!] = "0123456789abcdef0123456789abcdef"
            #expect(try await client.execute(uri: "/imports/wordpress", method: .post, headers: headers, body: ByteBuffer(bytes: file)).status == .conflict)
            headers[HTTPField.Name("Import-Progress-Id")!] = "short"
            #expect(try await client.execute(uri: "/imports/wordpress", method: .post, headers: headers, body: ByteBuffer(bytes: file)).status == .badRequest)
            #expect(try await client.send(.get, "/announcements", as: .admin).headers[.total] == "15", "only the first upload imported")
        }
    }

    @Test("query flags must be true or false")
    func flags() async throws {
        try await withTestServer { _, client in
            let file = Data((Self.wxrHead + Self.goodItem + "</channel></rss>").utf8)
            let answer = try await Self.post(file, query: "?dryRun=yes", client: client)
            #expect(answer.status == .badRequest)
            #expect(try answer.object()["detail"] as? String == "The query parameter dryRun must be true or false, not 'yes'.")
            #expect(try await client.send(.get, "/announcements", as: .admin).headers[.total] == "6")
        }
    }
}
