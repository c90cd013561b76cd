import Crypto
import Foundation
import IntranetAPI
import IntranetHTML

/// What becomes what: the pure part of an import, from an export's items to announcements'
/// content, with no database (the persistence is in `WordPressImporter.swift`).
extension WordPressImporter {
    enum Disposition: Equatable {
        case publicly, privately
        case skip(String)
    }

    /// Whether an item is imported, and for whom.
    static func disposition(of item: WXRItem, options: ImportOptions) -> Disposition {
        switch item.postType {
        case "post": break
        case "page" where options.includePages: break
        case "page": return .skip("page")
        case "attachment": return .skip("attachment")
        case "nav_menu_item": return .skip("navMenuItem")
        default: return .skip("otherType")
        }
        switch item.status {
        case "publish" where item.password.isEmpty:
            return .publicly
        case "publish":
            return options.includePrivate ? .privately : .skip("passwordProtected")
        case "private":
            return options.includePrivate ? .privately : .skip("private")
        case "future" where options.includeScheduled && item.password.isEmpty:
            return .publicly
        case "draft", "pending", "future", "trash":
            return .skip(item.status)
        default:
            return .skip("otherStatus")
        }
    }

    struct Converted {
        var title: String
        var body: String?
        var createdAt: Date
        var updatedAt: Date
    }

    /// The announcement a post becomes, noting in `report` what had to be changed.
    func convert(_ item: WXRItem, postID: Int, report: inout ImportReport) -> Converted {
        let sanitized = sanitizer.sanitize(WordPressContent.readerHTML(item.content))
        if sanitized.removals > 0 { report.bodiesCleaned += 1 }
        let body = sanitized.html.trimmingCharacters(in: .whitespacesAndNewlines)

        var title = Self.plainText(item.title)
        if title.isEmpty {
            title = Self.title(fromBody: body)
            report.titlesMade.append(.init(postId: postID, title: title))
        } else if title.unicodeScalars.count > AnnouncementRules.maxTitleCodePoints {
            title = Self.shortened(title, to: AnnouncementRules.maxTitleCodePoints)
            report.titlesShortened.append(.init(postId: postID, title: title))
        }
        if AnnouncementRules.titleProblem(title) != nil {
            // Nothing a title rule refuses is ever stored, whatever the export held.
            title = "(untitled)"
            report.titlesMade.append(.init(postId: postID, title: title))
        }
        let created = Self.date(item.postDateGMT) ?? Self.date(item.postDate) ?? FluentAnnouncementRepository.millisecondPrecision(now())
        let updated = Self.date(item.modifiedGMT) ?? Self.date(item.modified) ?? created
        return Converted(title: title, body: body.isEmpty ? nil : body, createdAt: created, updatedAt: max(updated, created))
    }

    /// Text with HTML entities decoded, tags and control characters dropped, runs of white
    /// space made one space.
    static func plainText(_ html: String) -> String {
        let text = HTMLParser.parseFragment(html).map(\.textContent).joined()
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.properties.generalCategory != .control || $0.properties.isWhitespace
        }))
        return printable.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The first words of the body, or `(untitled)`.
    static func title(fromBody body: String) -> String {
        let words = plainText(body).split(separator: " ")
        guard !words.isEmpty else { return "(untitled)" }
        var title = ""
        for word in words {
            if !title.isEmpty && title.count + word.count + 1 > 60 { return title + "…" }
            title += title.isEmpty ? String(word) : " " + word
        }
        return title.unicodeScalars.count > AnnouncementRules.maxTitleCodePoints ? shortened(title, to: AnnouncementRules.maxTitleCodePoints) : title
    }

    /// `title` cut at the last word boundary that leaves room for "…" within `limit` code points.
    static func shortened(_ title: String, to limit: Int) -> String {
        var scalars = String.UnicodeScalarView(title.unicodeScalars.prefix(limit - 1))
        // Never end inside a grapheme cluster: drop the last, possibly split, character.
        var cut = String(scalars)
        if cut.unicodeScalars.count < title.unicodeScalars.count, let lastSpace = cut.lastIndex(where: { $0.isWhitespace }) {
            cut = String(cut[..<lastSpace])
        } else if !cut.isEmpty {
            cut.removeLast()
        }
        scalars = cut.trimmingCharacters(in: .whitespaces).unicodeScalars
        return String(scalars) + "…"
    }

    /// `yyyy-MM-dd HH:mm:ss` as UTC; `nil` for WordPress's `0000-00-00 00:00:00` or anything else.
    static func date(_ text: String) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).compactMap { Int($0) }
        guard parts.count == 6, parts[0] >= 1970, (1...12).contains(parts[1]), (1...31).contains(parts[2]),
              (0...23).contains(parts[3]), (0...59).contains(parts[4]), (0...60).contains(parts[5])
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        (components.hour, components.minute, components.second) = (parts[3], parts[4], parts[5])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)
    }

    /// The site's identity across exports: its blog URL (or site URL, or link) in lower case,
    /// without a trailing slash.
    static func siteKey(_ channel: WXRChannel) -> String {
        let url = [channel.baseBlogURL, channel.baseSiteURL, channel.link]
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty } ?? ""
        var key = url.lowercased()
        while key.hasSuffix("/") { key.removeLast() }
        return key
    }

    /// What the export says of a post, and the options that shape its announcement.
    static func fingerprint(of item: WXRItem, restricted: Bool, owner: Int?) -> String {
        var hash = SHA256()
        let fields = [
            conversionVersion, item.title, item.content, item.postDate, item.postDateGMT, item.modified, item.modifiedGMT,
            restricted ? "restricted:\(owner ?? 0)" : "public", item.status, item.isSticky ? "sticky" : "",
        ]
        for field in fields {
            hash.update(data: Data(field.utf8))
            hash.update(data: Data([0]))
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
