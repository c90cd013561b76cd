import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IntranetAPI
import NIOCore
import Synchronization
import Testing
@testable import IntranetServer

/// The importer downloading a site's media from the site itself — here a fixture site served
/// by a local HTTP server — with a failing, a slow, an oversized, an endless, a missing file and
/// a redirect to another host: each reported, none holding the import up.
@Suite("WordPress import: media downloaded from the site")
struct WordPressMediaFetchTests {
    /// The fixture site's files, and how many times each was asked for.
    final class FixtureSite: Sendable {
        let requests = Mutex<[String: Int]>([:])

        func count(_ name: String) -> Int { requests.withLock { $0[name] ?? 0 } }

        var router: Router<BasicRequestContext> {
            let router = Router()
            let photo = (try? ImageFixture.data("gps.jpg")) ?? Data()
            router.get("/wp-content/uploads/2024/05/{name}") { request, context -> Response in
                let name = context.parameters.get("name") ?? ""
                self.requests.withLock { $0[name, default: 0] += 1 }
                switch name {
                case "canteen.jpg":
                    return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: photo)))
                case "moved.jpg":
                    return Response(status: .movedPermanently, headers: [.location: "/wp-content/uploads/2024/05/canteen.jpg"])
                case "broken.jpg":
                    return Response(status: .internalServerError)
                case "slow.jpg":
                    try await Task.sleep(for: .seconds(3))
                    return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: photo)))
                case "huge.jpg":
                    return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(repeating: 0xFF, count: 300_000)))
                case "endless.jpg":
                    // No Content-Length: only counting the bytes finds it too large.
                    return Response(status: .ok, body: ResponseBody { writer in
                        for _ in 0..<100 {
                            try await writer.write(ByteBuffer(repeating: 0xFF, count: 16_384))
                        }
                        try await writer.finish(nil)
                    })
                case "away.jpg":
                    let here = request.head.authority ?? ""
                    let elsewhere = here.replacingOccurrences(of: "127.0.0.1", with: "localhost")
                    return Response(status: .found, headers: [.location: "http://\(elsewhere)/wp-content/uploads/2024/05/canteen.jpg"])
                default:
                    return Response(status: .notFound)
                }
            }
            return router
        }
    }

    /// One post showing every file of the fixture site, in this order.
    static let files = ["canteen.jpg", "moved.jpg", "broken.jpg", "slow.jpg", "huge.jpg", "endless.jpg", "away.jpg", "missing.jpg"]

    static func wordPress(port: Int) -> WordPressSite {
        let uploads = "http://127.0.0.1:\(port)/wp-content/uploads/2024/05/"
        return WordPressSite(
            url: "http://127.0.0.1:\(port)",
            posts: [.init(id: 10, title: "Everything", body: files.map { #"<img src="\#(uploads)\#($0)">"# }.joined(separator: "\n"))])
    }

    /// Downloads of at most 250 kB (the photo has 197 kB), 1 s each (the slow file takes 3).
    static var options: MediaImportOptions {
        var options = MediaImportOptions(source: .site)
        options.maxBytes = 250_000
        options.timeout = .seconds(1)
        return options
    }

    @Test("a failing, a slow, an oversized and a redirected file are each reported; the good ones are stored; a second import fetches none of them again")
    func fixtureSite() async throws {
        let fixture = FixtureSite()
        try await Application(router: fixture.router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { siteClient in
            let port = try #require(siteClient.port)
            let uploads = "http://127.0.0.1:\(port)/wp-content/uploads/2024/05/"
            try await withTestServer { server, client in
                let report = try await WordPressImporter.run(Self.wordPress(port: port), into: server, media: Self.options)

                let media = try #require(report.media)
                #expect(media.source == "site")
                #expect((media.filesRead, media.attached) == (2, 2))
                #expect(media.failed.sorted { $0.url < $1.url } == [
                    .init(url: uploads + "away.jpg", reason: "redirected to localhost, a host the export does not name"),
                    .init(url: uploads + "broken.jpg", reason: "the site answered HTTP 500"),
                    .init(url: uploads + "endless.jpg", reason: "larger than 250000 bytes (ATTACHMENT_MAX_BYTES)"),
                    .init(url: uploads + "huge.jpg", reason: "larger than 250000 bytes (ATTACHMENT_MAX_BYTES)"),
                    .init(url: uploads + "missing.jpg", reason: "not found"),
                    .init(url: uploads + "slow.jpg", reason: "not received within 1 s"),
                ])
                let id = try await server.announcementID(ofPost: 10, site: "http://127.0.0.1:\(port)")
                let names = try await client.read("/announcements/\(id)/attachments").objects().map { $0["name"] as? String }
                #expect(names == ["canteen.jpg", "moved.jpg"])
                let body = try #require(try await client.read("/announcements/\(id)").object()["body"] as? String)
                #expect(body.components(separatedBy: "/announcements/\(id)/attachments/").count == 3, "two images point to the stored files")
                #expect(body.contains(uploads + "broken.jpg"), "the others keep their old URLs")
                #expect(try await StorageCounts.read(server).files == 2, "the photo and its 320 variant, stored once for both names")

                let again = try await WordPressImporter.run(Self.wordPress(port: port), into: server, media: Self.options)

                #expect(again.media?.alreadyImported == 2)
                #expect(again.media?.attached == 0)
                #expect(fixture.count("canteen.jpg") == 2, "once by name, once through the redirect; never again")
                #expect(fixture.count("moved.jpg") == 1)
                #expect(fixture.count("broken.jpg") == 2, "what failed is tried again")
            }
        }
    }

    @Test("downloads stop at the import's limit, and the rest are reported")
    func downloadLimit() async throws {
        let fixture = FixtureSite()
        try await Application(router: fixture.router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { siteClient in
            let port = try #require(siteClient.port)
            try await withTestServer { server, _ in
                var options = Self.options
                options.maxFiles = 2
                options.concurrency = 1

                let report = try await WordPressImporter.run(Self.wordPress(port: port), into: server, media: options)

                let media = try #require(report.media)
                #expect(media.attached == 2, "canteen.jpg and moved.jpg, the first two in the body")
                let limited = media.failed.filter { $0.reason.hasPrefix("not downloaded: the import's limit of 2 downloads") }
                #expect(limited.count == Self.files.count - 2)
                #expect(fixture.count("broken.jpg") == 0)
            }
        }
    }

    @Test("nothing is downloaded from a host the export does not name")
    func otherHosts() async throws {
        let fixture = FixtureSite()
        try await Application(router: fixture.router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { siteClient in
            let port = try #require(siteClient.port)
            try await withTestServer { server, _ in
                var site = Self.wordPress(port: port)
                site.url = "https://old.example"

                let report = try await WordPressImporter.run(site, into: server, media: Self.options)

                #expect(report.media?.attached == 0)
                #expect(report.media?.failed == [])
                #expect(fixture.requests.withLock { $0.isEmpty })
            }
        }
    }
}
