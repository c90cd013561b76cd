import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import NIOCore
import Testing
@testable import IntranetServer

/// The importer bringing a site's media from a copy of its uploads directory: attachments for
/// the posts they belong to, bodies pointed to them (WordPress's resized copies to the nearest
/// variant), and nothing read again on the next import.
@Suite("WordPress import: media from a directory")
struct WordPressMediaImportTests {
    static let site = "https://old.example"
    static let uploads = site + "/wp-content/uploads"

    /// Two posts, a draft, and attachment items: the canteen photo, the menu and a diagram
    /// uploaded to the first post (which shows the photo at 300 pixels and links the menu),
    /// and one uploaded to the draft. The second post shows a GIF and a resized WebP with no
    /// attachment item, the first by a root-relative URL.
    static var wordPress: WordPressSite {
        WordPressSite(
            url: site,
            posts: [
                .init(
                    id: 10, title: "Canteen reopens",
                    body: """
                        <img src="\(uploads)/2024/05/canteen-300x200.jpg" srcset="\(uploads)/2024/05/canteen-300x200.jpg 300w, \
                        \(uploads)/2024/05/canteen-1024x683.jpg 1024w" alt="The canteen" width="300" height="200">

                        The <a href="\(uploads)/2024/05/menu.pdf">menu</a>, and <a href="https://elsewhere.example/wp-content/uploads/x.jpg">elsewhere</a>.
                        """),
                .init(
                    id: 11, title: "New signs",
                    body: #"<img src="/wp-content/uploads/2023/01/spinner.gif" alt="Loading"> <img src="\#(uploads)/2023/01/banner-100x60.webp">"#),
                .init(id: 12, title: "Draft", body: "Not yet.", status: "draft"),
            ],
            attachments: [
                .init(id: 20, url: "\(uploads)/2024/05/canteen.jpg", parent: 10),
                .init(id: 21, url: "\(uploads)/2024/05/menu.pdf", parent: 10),
                .init(id: 22, url: "\(uploads)/2024/05/diagram.png", parent: 10),
                .init(id: 23, url: "\(uploads)/2024/05/plan.png", parent: 12),
            ])
    }

    /// A copy of the site's uploads directory.
    static func uploadsDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write(try ImageFixture.data("gps.jpg"), at: "2024/05/canteen.jpg")
        try directory.write(Data("%PDF-1.4\n% menu\n".utf8), at: "2024/05/menu.pdf")
        try directory.write(try ImageFixture.data("diagram.png"), at: "2024/05/diagram.png")
        try directory.write(try ImageFixture.data("spinner.gif"), at: "2023/01/spinner.gif")
        try directory.write(try ImageFixture.data("banner.webp"), at: "2023/01/banner.webp")
        return directory
    }

    @Test("files become attachments of their posts and the bodies point to them, a 300-pixel copy to the 320 variant", arguments: TestStorage.all)
    func mediaDirectory(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let directory = try Self.uploadsDirectory()

            let report = try await WordPressImporter.run(Self.wordPress, into: server, media: MediaImportOptions(source: .directory(directory.path)))

            let media = try #require(report.media)
            #expect(media.failed == [])
            #expect((media.source, media.filesRead, media.attached, media.alreadyImported, media.bodiesRewritten, media.unattached) == ("directory", 5, 5, 0, 2, 1))
            let canteen = try await server.announcementID(ofPost: 10, site: Self.site)
            let attachments = try await client.read("/announcements/\(canteen)/attachments").objects()
            #expect(attachments.map { $0["name"] as? String } == ["canteen.jpg", "menu.pdf", "diagram.png"], "the body's files first, then the others uploaded to the post")
            let photo = try #require(attachments.first)
            let photoURL = try #require(photo["url"] as? String)
            #expect((photo["variants"] as? [[String: Any]])?.map { $0["width"] as? Int } == [320], "the photo is 800 wide upright")
            let menuURL = try #require(attachments[1]["url"] as? String)
            let post = try await client.read("/announcements/\(canteen)").object()
            #expect(post["body"] as? String == """
                <p><img alt="The canteen" height="200" src="\(photoURL)/320" width="300"></p>
                <p>The <a href="\(menuURL)">menu</a>, and <a href="https://elsewhere.example/wp-content/uploads/x.jpg">elsewhere</a>.</p>
                """)
            #expect(post["updatedAt"] as? String == "2024-05-02T09:30:00.000Z", "storing the files leaves the post's date as WordPress had it")
            #expect(try await client.read(photoURL + "/320").status == .ok)

            let signs = try await server.announcementID(ofPost: 11, site: Self.site)
            let signFiles = try await client.read("/announcements/\(signs)/attachments").objects()
            #expect(signFiles.map { $0["name"] as? String } == ["spinner.gif", "banner.webp"])
            let spinnerURL = try #require(signFiles.first?["url"] as? String)
            let bannerURL = try #require(signFiles.last?["url"] as? String)
            let signsBody = try await client.read("/announcements/\(signs)").object()["body"] as? String
            #expect(signsBody == #"<p><img alt="Loading" src="\#(spinnerURL)"> <img src="\#(bannerURL)/320"></p>"#, "a copy 100 wide: the 320 variant is nearer than the full 500")
        }
    }

    @Test("importing again reads and stores nothing: the files are already there", arguments: TestStorage.all)
    func importingAgain(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let directory = try Self.uploadsDirectory()
            let options = MediaImportOptions(source: .directory(directory.path))
            _ = try await WordPressImporter.run(Self.wordPress, into: server, media: options)
            let stored = try await StorageCounts.read(server)
            let canteen = try await server.announcementID(ofPost: 10, site: Self.site)
            let before = try await client.read("/announcements/\(canteen)")
            // Nothing can be read any more: any read would be reported as a failure.
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                try FileManager.default.removeItem(atPath: directory.path + "/" + file)
            }

            let again = try await WordPressImporter.run(Self.wordPress, into: server, media: options)

            let media = try #require(again.media)
            #expect((media.filesRead, media.attached, media.alreadyImported, media.bodiesRewritten, media.failed) == (0, 0, 5, 0, []))
            #expect(try await StorageCounts.read(server) == stored)
            let after = try await client.read("/announcements/\(canteen)")
            #expect(after.headers[.eTag] == before.headers[.eTag], "the announcement did not change")
        }
    }

    @Test("a post changed since, imported through the API without media, points its new body to the files imported before")
    func changedPostKeepsItsFiles() async throws {
        try await withTestServer { server, client in
            let directory = try Self.uploadsDirectory()
            _ = try await WordPressImporter.run(Self.wordPress, into: server, media: MediaImportOptions(source: .directory(directory.path)))
            var newer = Self.wordPress
            newer.posts[0].body += "\n\nNow with soup."
            newer.posts[0].modified = "2024-06-01 12:00:00"

            let answer = try await WordPressImportTests.post(Data(newer.export.utf8), client: client)

            let report = try answer.object()
            #expect(report["updated"] as? Int == 1)
            #expect((report["media"] as? [String: Any])?["bodiesRewritten"] as? Int == 1)
            #expect((report["media"] as? [String: Any])?["filesRead"] as? Int == 0)
            let canteen = try await server.announcementID(ofPost: 10, site: Self.site)
            let body = try #require(try await client.read("/announcements/\(canteen)").object()["body"] as? String)
            #expect(body.contains(#"src="/announcements/\#(canteen)/attachments/"#) && body.contains("Now with soup."))
            #expect(!body.contains("old.example"))
        }
    }

    @Test("a file whose path leads out of the directory through a symbolic link is refused and reported")
    func symbolicLinkOutOfTheDirectory() async throws {
        try await withTestServer { server, client in
            let directory = try Self.uploadsDirectory()
            let outside = try TemporaryDirectory()
            try outside.write(Data("secret".utf8), at: "secret.pdf")
            try FileManager.default.removeItem(atPath: directory.path + "/2024/05/menu.pdf")
            try FileManager.default.createSymbolicLink(atPath: directory.path + "/2024/05/menu.pdf", withDestinationPath: outside.path + "/secret.pdf")

            let report = try await WordPressImporter.run(Self.wordPress, into: server, media: MediaImportOptions(source: .directory(directory.path)))

            let media = try #require(report.media)
            #expect(media.failed == [.init(url: "\(Self.uploads)/2024/05/menu.pdf", reason: "its path leads outside the media directory")])
            #expect(media.attached == 4)
            let canteen = try await server.announcementID(ofPost: 10, site: Self.site)
            let body = try #require(try await client.read("/announcements/\(canteen)").object()["body"] as? String)
            #expect(body.contains(#"<a href="\#(Self.uploads)/2024/05/menu.pdf">"#), "the link to a file not brought stays")
            #expect(report.summary.contains("media not imported (\(Self.uploads)/2024/05/menu.pdf): its path leads outside the media directory"))
        }
    }

    @Test("a dry run counts the attachments it would add and reads no file")
    func dryRun() async throws {
        try await withTestServer { server, _ in
            let empty = try TemporaryDirectory()

            let report = try await WordPressImporter.run(Self.wordPress, into: server, media: MediaImportOptions(source: .directory(empty.path)), dryRun: true)

            let media = try #require(report.media)
            #expect((media.filesRead, media.attached, media.unattached, media.failed) == (0, 5, 1, []))
            #expect(report.summary.contains("5 attachments to add"))
            #expect(try await StorageCounts.read(server) == StorageCounts(files: 0, chunks: 0, attachments: 0, variants: 0))
        }
    }
}
