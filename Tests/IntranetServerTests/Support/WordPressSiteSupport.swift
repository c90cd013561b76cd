import FluentKit
import Foundation
import IntranetAPI
import Testing
@testable import IntranetServer

/// A small WordPress site written as an export for the media tests: posts and attachment items,
/// everything else as WordPress writes it.
struct WordPressSite {
    struct Post {
        var id: Int
        var title: String
        var body: String
        var status = "publish"
        var modified = "2024-05-02 09:30:00"
    }

    struct Attachment {
        var id: Int
        var url: String
        /// The post it was uploaded to; 0 for none.
        var parent: Int
    }

    /// `scheme://host[:port]`, without a trailing slash.
    var url: String
    var posts: [Post] = []
    var attachments: [Attachment] = []

    /// The export's XML.
    var export: String {
        var items = ""
        for post in posts {
            items += item(id: post.id, title: post.title, type: "post", status: post.status, parent: 0, modified: post.modified, content: post.body)
        }
        for attachment in attachments {
            let name = attachment.url.split(separator: "/").last.map(String.init) ?? ""
            items += item(id: attachment.id, title: name, type: "attachment", status: "inherit", parent: attachment.parent, modified: "2024-05-01 08:00:00", content: "")
                .replacingOccurrences(of: "</item>", with: "<wp:attachment_url><![CDATA[\(attachment.url)]]></wp:attachment_url></item>")
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:wp="http://wordpress.org/export/1.2/">
            <channel>
            <title>Old intranet</title><link>\(url)</link><wp:wxr_version>1.2</wp:wxr_version>
            <wp:base_site_url>\(url)</wp:base_site_url><wp:base_blog_url>\(url)</wp:base_blog_url>
            \(items)</channel>
            </rss>
            """
    }

    private func item(id: Int, title: String, type: String, status: String, parent: Int, modified: String, content: String) -> String {
        """
        <item><title>\(title)</title><link>\(url)/?p=\(id)</link><dc:creator><![CDATA[maria]]></dc:creator>
        <content:encoded><![CDATA[\(content)]]></content:encoded><wp:post_id>\(id)</wp:post_id>
        <wp:post_date_gmt><![CDATA[2024-05-01 08:00:00]]></wp:post_date_gmt><wp:post_modified_gmt><![CDATA[\(modified)]]></wp:post_modified_gmt>
        <wp:status><![CDATA[\(status)]]></wp:status><wp:post_parent>\(parent)</wp:post_parent><wp:post_type><![CDATA[\(type)]]></wp:post_type>
        <wp:post_password><![CDATA[]]></wp:post_password></item>

        """
    }

    /// Writes the export to a new temporary file; its path.
    func write() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wordpress-\(UUID().uuidString).xml").path
        try Data(export.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// A temporary directory that removes itself.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `data` at `relativePath`, making the directories on the way.
    func write(_ data: Data, at relativePath: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
}

extension WordPressImporter {
    /// Imports `site`'s export into the test server's database as the `import` command does.
    static func run(_ site: WordPressSite, into server: IntranetServer, media: MediaImportOptions?, dryRun: Bool = false) async throws -> ImportReport {
        let path = try site.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await WordPressImporter(database: server.database.database, changes: server.changes)
            .run(path: path, options: ImportOptions(dryRun: dryRun, media: media))
    }
}

extension IntranetServer {
    /// The announcement WordPress post `postID` of `site` became.
    func announcementID(ofPost postID: Int, site: String) async throws -> Int {
        let source = try await ImportSourceModel.query(on: database.database).filter(\.$site == site.lowercased()).filter(\.$postID == postID).first()
        return try #require(source?.announcementID, "post \(postID) was not imported")
    }
}
