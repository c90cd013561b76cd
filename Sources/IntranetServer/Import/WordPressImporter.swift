import Crypto
import FluentKit
import Foundation
import IntranetAPI
import IntranetHTML
import SQLKit
import Synchronization

/// How an import runs.
public struct ImportOptions: Sendable, Equatable {
    /// Report what would happen and change nothing.
    public var dryRun = false
    /// Import private and password-protected posts, readable only by ``owner``.
    public var includePrivate = false
    /// Import published pages too, as announcements.
    public var includePages = false
    /// The admin's user id the private posts are restricted to.
    public var owner: Int?

    public init(dryRun: Bool = false, includePrivate: Bool = false, includePages: Bool = false, owner: Int? = nil) {
        self.dryRun = dryRun
        self.includePrivate = includePrivate
        self.includePages = includePages
        self.owner = owner
    }
}

/// How far an import is.
public struct ImportProgress: Sendable, Equatable {
    /// Items of the export read so far (posts, pages, attachments…).
    public var items: Int
    /// Bytes of the file parsed so far.
    public var bytes: Int
}

/// Turns a WordPress export into announcements, in one transaction (a malformed file imports
/// nothing), remembering each post's site and id so that importing again changes nothing and
/// a newer export of the same site updates what changed.
struct WordPressImporter {
    let database: any Database
    /// What every body goes through (with the embeds the admin allows).
    var sanitizer: HTMLSanitizer = .bodies
    /// The time given to posts whose export has no date.
    var now: @Sendable () -> Date = { Date() }

    /// Bumped when the conversion changes, so that posts imported before are converted again.
    static let conversionVersion = "1"

    /// Imports the export at `path`.
    ///
    /// - Throws: ``WXRError`` for a file that is malformed or not a WordPress export;
    ///   ``APIError`` 422 when private posts are included without an owner.
    func run(path: String, options: ImportOptions, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws -> ImportReport {
        if options.includePrivate && options.owner == nil {
            throw APIError.validation([.init(field: "includePrivate", message: "needs the admin the private posts are restricted to")])
        }
        if options.dryRun {
            return try await importAll(from: WXRReader(path: path), options: options, on: database, progress: progress)
        }
        return try await database.transaction { database in
            try await importAll(from: WXRReader(path: path), options: options, on: database, progress: progress)
        }
    }

    private func importAll(
        from reader: WXRReader, options: ImportOptions, on database: any Database, progress: @Sendable (ImportProgress) -> Void
    ) async throws -> ImportReport {
        var report: ImportReport?
        var sources: [Int: KnownSource] = [:]
        var items = 0
        var changed = false
        while let item = try reader.nextItem() {
            if report == nil {
                report = try await start(reader.channel, options: options, on: database)
                sources = try await Self.knownSources(of: report!.site, on: database)
            }
            items += 1
            if items % 100 == 0 { progress(ImportProgress(items: items, bytes: reader.bytesRead)) }
            changed = try await importItem(item, options: options, sources: &sources, report: &report!, on: database) || changed
        }
        var finished: ImportReport
        if let report {
            finished = report
        } else {
            finished = try await start(reader.channel, options: options, on: database)
        }
        progress(ImportProgress(items: items, bytes: reader.bytesRead))
        if changed && !options.dryRun {
            try await FluentAnnouncementRepository.bumpRevision(on: database)
        }
        finished.dryRun = options.dryRun
        return finished
    }

    /// The report's header: the site and the authors, with whether each has an account.
    private func start(_ channel: WXRChannel, options: ImportOptions, on database: any Database) async throws -> ImportReport {
        let site = Self.siteKey(channel)
        guard !site.isEmpty else {
            throw WXRError(message: "not a WordPress export: it names no site (wp:base_blog_url, wp:base_site_url or link)", line: 0, column: 0)
        }
        let usernames = Set(try await UserModel.query(on: database).all(\.$usernameKey))
        var report = ImportReport(dryRun: options.dryRun, site: site, wxrVersion: channel.version)
        report.authors = channel.authors.map {
            ImportReport.Author(login: $0.login, displayName: $0.displayName, hasAccount: usernames.contains($0.login.lowercased()))
        }
        return report
    }

    /// Imports one item; true when it changed the database.
    private func importItem(
        _ item: WXRItem, options: ImportOptions, sources: inout [Int: KnownSource], report: inout ImportReport,
        on database: any Database
    ) async throws -> Bool {
        if item.comments > 0 { report.skipped["comments", default: 0] += item.comments }
        guard let postID = Int(item.postID.trimmingCharacters(in: .whitespaces)) else {
            report.skipped["noPostId", default: 0] += 1
            return false
        }
        let restricted: Bool
        switch Self.disposition(of: item, options: options) {
        case .skip(let reason):
            report.skipped[reason, default: 0] += 1
            return try await withdraw(sources[postID], report: &report, dryRun: options.dryRun, on: database)
        case .publicly:
            restricted = false
        case .privately:
            restricted = true
        }
        let fingerprint = Self.fingerprint(of: item, restricted: restricted, owner: options.owner)
        let existing = sources[postID]
        if let existing, existing.fingerprint == fingerprint {
            report.unchanged += 1
            return false
        }
        let converted = convert(item, postID: postID, report: &report)
        let readers = restricted ? options.owner.map { [$0] } : nil
        if let existing, let model = try await AnnouncementModel.find(existing.announcementID, on: database) {
            report.updated += 1
            guard !options.dryRun else { return false }
            model.title = converted.title
            model.body = converted.body
            model.createdAt = converted.createdAt
            model.updatedAt = converted.updatedAt
            model.isRestricted = restricted
            model.revision += 1
            try await model.update(on: database)
            try await replaceReaders(of: existing.announcementID, with: readers, on: database)
            try await Self.setFingerprint(fingerprint, ofSource: existing.id, on: database)
            return true
        }
        report.created += 1
        guard !options.dryRun else { return false }
        let model = AnnouncementModel(title: converted.title, body: converted.body, createdAt: converted.createdAt)
        model.updatedAt = converted.updatedAt
        model.isRestricted = restricted
        try await model.create(on: database)
        let id = try model.requireID()
        if let readers, !readers.isEmpty {
            // A new announcement has no grants to replace.
            try await readers.map { ReaderGrantModel(announcementID: id, userID: $0) }.create(on: database)
        }
        let source = ImportSourceModel(announcementID: id, site: report.site, postID: postID, fingerprint: fingerprint)
        try await source.create(on: database)
        sources[postID] = KnownSource(id: try source.requireID(), announcementID: id, fingerprint: fingerprint)
        return true
    }

    /// Restricts the announcement of a post that is no longer published to editors and
    /// admins; true when that changed it.
    private func withdraw(_ source: KnownSource?, report: inout ImportReport, dryRun: Bool, on database: any Database) async throws -> Bool {
        guard let source, let model = try await AnnouncementModel.find(source.announcementID, on: database) else { return false }
        let grants = try await ReaderGrantModel.query(on: database).filter(\.$announcementID == source.announcementID).count()
        guard !model.isRestricted || grants > 0 else { return false }
        report.withdrawn += 1
        guard !dryRun else { return false }
        model.isRestricted = true
        model.revision += 1
        try await model.update(on: database)
        try await replaceReaders(of: source.announcementID, with: nil, on: database)
        // Forget the fingerprint: when the post is published again, it is imported again.
        try await Self.setFingerprint("", ofSource: source.id, on: database)
        return true
    }

    /// What the database remembers of a post imported before: kept for every post of the site
    /// during an import, so a few integers and a fingerprint rather than a Fluent model each
    /// (a model per post made a 200 MB export cost the server 300 MB).
    struct KnownSource {
        var id: Int
        var announcementID: Int
        var fingerprint: String
    }

    /// The site's imported posts by WordPress post id, read row by row.
    static func knownSources(of site: String, on database: any Database) async throws -> [Int: KnownSource] {
        guard let sql = database as? any SQLDatabase else { return [:] }
        let collected = Mutex<[Int: KnownSource]>([:])
        try await sql.select().columns("id", "announcement_id", "post_id", "fingerprint").from(ImportSourceModel.schema)
            .where("site", .equal, site)
            .run { row in
                guard let id = try? row.decode(column: "id", as: Int.self),
                      let announcementID = try? row.decode(column: "announcement_id", as: Int.self),
                      let postID = try? row.decode(column: "post_id", as: Int.self),
                      let fingerprint = try? row.decode(column: "fingerprint", as: String.self)
                else { return }
                collected.withLock { $0[postID] = KnownSource(id: id, announcementID: announcementID, fingerprint: fingerprint) }
            }
        return collected.withLock { $0 }
    }

    static func setFingerprint(_ fingerprint: String, ofSource id: Int, on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.update(ImportSourceModel.schema).set("fingerprint", to: fingerprint).where("id", .equal, id).run()
    }

    private func replaceReaders(of id: Int, with readers: [Int]?, on database: any Database) async throws {
        try await ReaderGrantModel.query(on: database).filter(\.$announcementID == id).delete()
        if let readers, !readers.isEmpty {
            try await readers.map { ReaderGrantModel(announcementID: id, userID: $0) }.create(on: database)
        }
    }

    // MARK: What becomes what

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
            restricted ? "restricted:\(owner ?? 0)" : "public",
        ]
        for field in fields {
            hash.update(data: Data(field.utf8))
            hash.update(data: Data([0]))
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
