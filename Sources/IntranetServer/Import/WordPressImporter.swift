import Crypto
import FluentKit
import Foundation
import IntranetAPI
import IntranetHTML
import SQLKit
import Synchronization

/// Turns a WordPress export into announcements, in one transaction (a malformed file imports
/// nothing), remembering each post's site and id so that importing again changes nothing and
/// a newer export of the same site updates what changed.
///
/// Asked to, it then brings the export's media (`WordPressImporter+Media.swift`): each file is
/// stored as an attachment in a transaction of its own once the posts are committed, and the
/// bodies are pointed to them.
struct WordPressImporter {
    let database: any Database
    /// Where an import commits (as one change of ``ChangeDomain/announcements``), and what
    /// learns of it.
    let changes: ChangePipeline
    /// What every body goes through (with the embeds the admin allows).
    var sanitizer: HTMLSanitizer = .bodies
    /// The time given to posts whose export has no date.
    var now: @Sendable () -> Date = { Date() }
    /// Where media are stored (the server's, with its limits); without one, a store over
    /// `database` and `changes` with the limits of ``MediaImportOptions``.
    var attachments: AttachmentStore?

    /// - Parameters:
    ///   - changes: the server's pipeline; without one (the `import` command), the import still
    ///     counts in the database's revisions.
    init(
        database: any Database, changes: ChangePipeline? = nil, sanitizer: HTMLSanitizer = .bodies, attachments: AttachmentStore? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.changes = changes ?? ChangePipeline(database: database)
        self.sanitizer = sanitizer
        self.attachments = attachments
        self.now = now
    }

    /// Bumped when the conversion changes, so that posts imported before are converted again.
    static let conversionVersion = "1"

    /// Imports the export at `path`.
    ///
    /// - Throws: ``WXRError`` for a file that is malformed or not a WordPress export;
    ///   ``APIError`` 422 when private posts are included without an owner, or for a media
    ///   directory that is not one.
    func run(path: String, options: ImportOptions, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws -> ImportReport {
        if options.includePrivate && options.owner == nil {
            throw APIError.validation([.init(field: "includePrivate", message: "needs the admin the private posts are restricted to")])
        }
        if case .directory(let directory) = options.media?.source {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw APIError.validation([.init(field: "mediaDirectory", message: "\(directory) is not a directory")])
            }
        }
        let posts: Posts
        if options.dryRun {
            posts = try await importAll(from: WXRReader(path: path), options: options, on: database, progress: progress)
        } else {
            posts = try await changes.write(.announcements, on: database) { database, changed in
                let posts = try await importAll(from: WXRReader(path: path), options: options, on: database, progress: progress)
                if !posts.wrote { changed.domains = [] }
                return posts
            }
        }
        var report = posts.report
        try await importMedia(posts.media, options: options, report: &report)
        return report
    }

    /// What the posts' part of an import did, and the media it found.
    private struct Posts: Sendable {
        var report: ImportReport
        var wrote: Bool
        var media: MediaPlan
    }

    private func importAll(
        from reader: WXRReader, options: ImportOptions, on database: any Database, progress: @Sendable (ImportProgress) -> Void
    ) async throws -> Posts {
        var report: ImportReport?
        var sources: [Int: KnownSource] = [:]
        var media: MediaPlan?
        var items = 0
        var wrote = false
        while let item = try reader.nextItem() {
            if report == nil {
                report = try await start(reader.channel, options: options, on: database)
                sources = try await Self.knownSources(of: report!.site, on: database)
                media = MediaPlan(channel: reader.channel, gathersAll: options.media != nil)
            }
            items += 1
            if items % 100 == 0 { progress(ImportProgress(items: items, bytes: reader.bytesRead)) }
            wrote = try await importItem(item, options: options, sources: &sources, media: &media!, report: &report!, on: database) || wrote
        }
        var finished: ImportReport
        if let report {
            finished = report
        } else {
            finished = try await start(reader.channel, options: options, on: database)
        }
        progress(ImportProgress(items: items, bytes: reader.bytesRead))
        finished.dryRun = options.dryRun
        return Posts(report: finished, wrote: wrote, media: media ?? MediaPlan(channel: reader.channel, gathersAll: false))
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
        _ item: WXRItem, options: ImportOptions, sources: inout [Int: KnownSource], media: inout MediaPlan, report: inout ImportReport,
        on database: any Database
    ) async throws -> Bool {
        if item.comments > 0 { report.skipped["comments", default: 0] += item.comments }
        if item.postType == "attachment" { media.noteAttachment(item) }
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
            media.notePost(item, postID: postID, announcementID: existing.announcementID, isChanged: false)
            return false
        }
        let converted = convert(item, postID: postID, report: &report)
        // A scheduled post (imported with includeScheduled) appears at its date; a sticky one
        // is pinned.
        let publishAt = item.status == "future" ? converted.createdAt : nil
        let readers = restricted ? options.owner.map { [$0] } : nil
        if let existing, let model = try await AnnouncementModel.find(existing.announcementID, on: database) {
            report.updated += 1
            media.notePost(item, postID: postID, announcementID: existing.announcementID, isChanged: true)
            guard !options.dryRun else { return false }
            model.title = converted.title
            model.body = converted.body
            model.createdAt = converted.createdAt
            model.updatedAt = converted.updatedAt
            // An audience an editor gave it here stays, and keeps it restricted.
            let hasAudience = try await AudienceModel.query(on: database).filter(\.$announcementID == existing.announcementID).count() > 0
            model.isRestricted = restricted || hasAudience
            model.hasReaders = restricted
            // Published again: a post withdrawn by an import (its fingerprint forgotten) was
            // made a draft; one an editor made a draft stays one.
            if existing.fingerprint.isEmpty { model.status = AnnouncementStatus.published.rawValue }
            // A scheduled WordPress post sets its date; otherwise the schedule an editor gave here
            // stays. A sticky post is pinned; an editor's pin is never taken away by an import.
            if let publishAt { model.publishAt = publishAt }
            if item.isSticky, !model.pinned {
                model.pinned = true
                model.pinnedAt = converted.updatedAt
            }
            model.revision += 1
            try await model.update(on: database)
            try await AnnouncementSearchIndex.index(id: existing.announcementID, title: model.title, body: model.body, on: database)
            try await replaceReaders(of: existing.announcementID, with: readers, on: database)
            try await Self.setFingerprint(fingerprint, ofSource: existing.id, on: database)
            return true
        }
        report.created += 1
        guard !options.dryRun else {
            media.notePost(item, postID: postID, announcementID: nil, isChanged: true)
            return false
        }
        let model = AnnouncementModel(title: converted.title, body: converted.body, createdAt: converted.createdAt)
        model.updatedAt = converted.updatedAt
        model.isRestricted = restricted
        model.hasReaders = restricted
        model.publishAt = publishAt
        model.pinned = item.isSticky
        model.pinnedAt = item.isSticky ? converted.updatedAt : nil
        try await model.create(on: database)
        let id = try model.requireID()
        try await AnnouncementSearchIndex.index(id: id, title: model.title, body: model.body, on: database)
        if let readers, !readers.isEmpty {
            // A new announcement has no grants to replace.
            try await readers.map { ReaderGrantModel(announcementID: id, userID: $0) }.create(on: database)
        }
        let source = ImportSourceModel(announcementID: id, site: report.site, postID: postID, fingerprint: fingerprint)
        try await source.create(on: database)
        sources[postID] = KnownSource(id: try source.requireID(), announcementID: id, fingerprint: fingerprint)
        media.notePost(item, postID: postID, announcementID: id, isChanged: true)
        return true
    }

    /// Makes the announcement of a post that is no longer published a draft (seen by editors
    /// and admins only); true when that changed it.
    private func withdraw(_ source: KnownSource?, report: inout ImportReport, dryRun: Bool, on database: any Database) async throws -> Bool {
        guard let source, let model = try await AnnouncementModel.find(source.announcementID, on: database),
            model.status != AnnouncementStatus.draft.rawValue
        else { return false }
        report.withdrawn += 1
        guard !dryRun else { return false }
        model.status = AnnouncementStatus.draft.rawValue
        model.revision += 1
        try await model.update(on: database)
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
}
