import Crypto
import Foundation
import IntranetAPI
import IntranetHTML

/// Writes an Atom 1.0 feed (RFC 4287) of announcements: what feed readers and mail clients
/// follow.
///
/// Links are relative to the feed's own address (`/announcements/7`), so the feed is right under
/// whatever name the site is reached by; ids are `urn:uuid:` names made from the site's random
/// id and the announcement's (stable across renames of the site, unique across sites). Bodies
/// are the sanitised HTML, as `type="html"` text.
enum AtomFeed {
    /// One feed's parts.
    struct Feed {
        /// The feed's title, e.g. `Intranet announcements`.
        var title: String
        /// The feed's own address, relative (`/feed.atom`; a personal feed's path only, never
        /// its token).
        var selfPath: String
        /// The site's random id (``FeedTokens/siteID()``).
        var siteID: String
        /// The feed's name among the site's feeds, for its id (`public`, `personal:<user id>`).
        var name: String
        var entries: [StoredAnnouncement]
    }

    /// The whole document.
    static func render(_ feed: Feed, sanitizer: HTMLSanitizer) -> String {
        let updated = feed.entries.map(\.updatedAt).max() ?? Date(timeIntervalSince1970: 0)
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>\(escaped(feed.title))</title>
            <id>\(uuidURN(feed.siteID, "feed:" + feed.name))</id>
            <updated>\(timestamp(updated))</updated>
            <link rel="self" type="application/atom+xml" href="\(escaped(feed.selfPath))"/>
            <link rel="alternate" type="text/html" href="/"/>
            <author><name>Intranet</name></author>
            <generator>intranet-server</generator>

            """
        for announcement in feed.entries {
            let published = announcement.publishing.publishAt.map { max($0, announcement.createdAt) } ?? announcement.createdAt
            xml += """
                <entry>
                <title type="text">\(escaped(announcement.title))</title>
                <id>\(uuidURN(feed.siteID, "announcement:\(announcement.id)"))</id>
                <link rel="alternate" type="text/html" href="/announcements/\(announcement.id)"/>
                <published>\(timestamp(published))</published>
                <updated>\(timestamp(max(announcement.updatedAt, published)))</updated>
                <content type="html">\(escaped(sanitizer.sanitize(announcement.body ?? "").html))</content>
                </entry>

                """
        }
        return xml + "</feed>\n"
    }

    /// `2026-11-26T10:00:00.000Z`.
    static func timestamp(_ date: Date) -> String {
        IntranetJSON.format(date)
    }

    /// Text as XML character data or a double-quoted attribute value: markup characters as
    /// entities (the sanitiser's escaping, by Unicode scalar), and the characters XML 1.0
    /// cannot hold at all (control characters but tab and line ends, U+FFFE, U+FFFF) left out.
    static func escaped(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !(scalar.value < 0x20 && !["\t", "\n", "\r"].contains(scalar)) && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
            kept.append(scalar)
        }
        return HTMLSanitizer.escape(String(kept))
    }

    /// A name-based `urn:uuid:` (SHA-256 of the site's id and `name`, version and variant bits
    /// set as RFC 9562's version 8 says).
    static func uuidURN(_ siteID: String, _ name: String) -> String {
        var bytes = Array(SHA256.hash(data: Data((siteID + "|" + name).utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.hexString
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return "urn:uuid:" + parts.joined(separator: "-")
    }
}
