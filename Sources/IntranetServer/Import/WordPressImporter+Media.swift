import FluentKit
import Foundation
import IntranetAPI

/// The media part of an import, once the posts are committed: the files each imported post's
/// announcement lacks are read (from a copy of the uploads directory or from the site) and
/// stored as its attachments, one transaction each (a file that cannot be read or stored is
/// reported and left for the next import); then, in one transaction, the bodies are pointed to
/// the stored files.
///
/// Which files are already there is remembered (``ImportedMedia``): importing again reads and
/// stores nothing new. An announcement's `updatedAt` stays what the import made it (the
/// WordPress post's modification date), although adding an attachment moves it; its revision
/// moves on, so caches and `ETag`s see the change.
extension WordPressImporter {
    /// Brings the files the imported posts lack (when `options` say from where), then points
    /// the bodies of the posts this import changed, and of those that got files, to them.
    func importMedia(_ plan: MediaPlan, options: ImportOptions, report: inout ImportReport) async throws {
        var known = try await ImportedMedia.all(of: report.site, on: database)
        let (assignments, unattached) = plan.assignments()
        var media = ImportReport.Media(source: options.media?.source.name)
        var gotFiles: Set<Int> = []
        var updatedAt: [Int: Date] = [:]
        if let mediaOptions = options.media {
            let (missing, alreadyImported) = Self.missing(in: assignments, known: known)
            media.unattached = unattached
            media.alreadyImported = alreadyImported
            if options.dryRun {
                media.attached = missing.reduce(0) { $0 + $1.media.count }
            } else {
                // Every post has its announcement once the posts are committed.
                let work = missing.compactMap { item in item.announcementID.map { (announcementID: $0, media: item.media) } }
                updatedAt = try await Self.updatedAt(of: work.map(\.announcementID), on: database)
                let stored = try await attach(work, options: mediaOptions, plan: plan, site: report.site)
                media.filesRead = stored.filesRead
                media.attached = stored.attached.count
                media.failed = stored.failed
                for (key, attachmentID) in stored.attached {
                    known[key] = attachmentID
                    gotFiles.insert(key.announcementID)
                }
            }
        }
        if !options.dryRun {
            let ids = assignments.compactMap { assignment in
                assignment.post.announcementID.flatMap { assignment.post.isChanged || gotFiles.contains($0) ? $0 : nil }
            }
            media.bodiesRewritten = try await pointBodies(of: ids, to: known, plan: plan, restoring: updatedAt.filter { gotFiles.contains($0.key) })
        }
        if options.media != nil || media.bodiesRewritten > 0 { report.media = media }
    }

    /// The files each post's announcement lacks (a post new in a dry run lacks all of its
    /// files), and how many it has already.
    private static func missing(
        in assignments: [MediaPlan.Assignment], known: [ImportedMedia.Key: Int]
    ) -> (missing: [(announcementID: Int?, media: [MediaPlan.Medium])], alreadyImported: Int) {
        var missing: [(announcementID: Int?, media: [MediaPlan.Medium])] = []
        var alreadyImported = 0
        for assignment in assignments {
            let id = assignment.post.announcementID
            let lacking = assignment.media.filter { medium in id.map { known[ImportedMedia.Key(path: medium.key, announcementID: $0)] == nil } ?? true }
            alreadyImported += assignment.media.count - lacking.count
            if !lacking.isEmpty { missing.append((id, lacking)) }
        }
        return (missing, alreadyImported)
    }

    /// What storing the files did.
    private struct Stored: Sendable {
        var filesRead = 0
        var attached: [(key: ImportedMedia.Key, attachmentID: Int)] = []
        var failed: [ImportReport.Media.Failure] = []
    }

    /// Reads and stores each announcement's missing files, a few announcements at once (each
    /// one's files in order, so they keep the order of its body).
    private func attach(_ work: [(announcementID: Int, media: [MediaPlan.Medium])], options: MediaImportOptions, plan: MediaPlan, site: String) async throws -> Stored {
        guard !work.isEmpty else { return Stored() }
        let store = attachments ?? AttachmentStore(
            database: database, changes: changes, blobs: DatabaseBlobStore(), images: ImageProcessor(maxPixels: options.maxPixels),
            maxBytes: options.maxBytes, quotaBytes: options.quotaBytes, now: now)
        let source: any MediaSource =
            switch options.source {
            case .directory(let path): try MediaDirectory(path: path, limit: store.maxBytes)
            case .site: SiteMediaFetcher(hosts: plan.hosts, limit: store.maxBytes, timeout: options.timeout, maxFiles: options.maxFiles)
            }
        let files = MediaFileCache(source: source, uses: work.flatMap(\.media).reduce(into: [:]) { $0[$1.key, default: 0] += 1 })
        var stored = Stored()
        var failedURLs: Set<String> = []
        do {
            try await withThrowingTaskGroup(of: Stored.self) { group in
                var pending = work[...]
                func startNext() {
                    guard let next = pending.popFirst() else { return }
                    group.addTask { try await attach(next.media, to: next.announcementID, store: store, files: files, site: site) }
                }
                for _ in 0..<max(1, options.concurrency) { startNext() }
                while let done = try await group.next() {
                    stored.attached += done.attached
                    for failure in done.failed where failedURLs.insert(failure.url).inserted {
                        stored.failed.append(failure)
                    }
                    startNext()
                }
            }
        } catch {
            await files.discardAll()
            throw error
        }
        await files.discardAll()
        stored.filesRead = await files.filesRead
        return stored
    }

    /// Stores `media` as attachments of announcement `announcementID`, in order.
    private func attach(
        _ media: [MediaPlan.Medium], to announcementID: Int, store: AttachmentStore, files: MediaFileCache, site: String
    ) async throws -> Stored {
        var stored = Stored()
        for medium in media {
            do {
                let file = try await files.file(for: medium)
                let name = (try? AttachmentName.checked(medium.sources.first?.name ?? "")) ?? "file"
                let description = try await store.add(file, name: name, to: announcementID)
                let key = ImportedMedia.Key(path: medium.key, announcementID: announcementID)
                try await ImportedMedia.remember(key, of: site, attachmentID: description.id, sha256: file.sha256, at: now(), on: database)
                stored.attached.append((key, description.id))
            } catch let error as CancellationError {
                throw error
            } catch {
                stored.failed.append(.init(url: medium.sources.first?.url ?? medium.key, reason: Self.reason(error)))
            }
            await files.release(medium.key)
        }
        return stored
    }

    /// Why a file was not stored, for the report.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as MediaReadError: error.reason
        case let error as APIError: "not stored: \(error.detail)"
        default: "not stored: \(error)"
        }
    }

    /// Most announcements one query names, far below what SQLite (32,766 parameters in a
    /// statement) and PostgreSQL (65,535) take.
    private static let idsPerQuery = 200

    /// Each announcement's `updatedAt`, by id.
    private static func updatedAt(of ids: [Int], on database: any Database) async throws -> [Int: Date] {
        try await models(ids, on: database).mapValues(\.updatedAt)
    }

    /// Announcements `ids`, by id, read in slices far below the databases' limits on a
    /// statement's parameters.
    private static func models(_ ids: [Int], on database: any Database) async throws -> [Int: AnnouncementModel] {
        var models: [Int: AnnouncementModel] = [:]
        for slice in ids.chunked(by: idsPerQuery) {
            for model in try await AnnouncementModel.query(on: database).filter(\.$id ~~ Array(slice)).all() {
                if let id = model.id { models[id] = model }
            }
        }
        return models
    }

    /// Points the bodies of announcements `ids` to their stored files, and gives back the
    /// `updatedAt` storing the files moved; how many bodies changed.
    private func pointBodies(of ids: [Int], to known: [ImportedMedia.Key: Int], plan: MediaPlan, restoring updatedAt: [Int: Date]) async throws -> Int {
        let withFiles = Set(known.keys.map(\.announcementID))
        let ids = ids.filter { updatedAt[$0] != nil || withFiles.contains($0) }
        guard !ids.isEmpty else { return 0 }
        return try await changes.write(.announcements, on: database) { database, changed in
            let models = try await Self.models(ids, on: database)
            var descriptions: [Int: [AttachmentDescription]] = [:]
            for slice in ids.chunked(by: Self.idsPerQuery) {
                descriptions.merge(try await AttachmentStore.descriptions(of: Array(slice), on: database)) { first, _ in first }
            }
            var rewritten = 0
            var subjects: [Change.Subject] = []
            for id in ids {
                guard let model = models[id] else { continue }
                let attachments = Dictionary((descriptions[id] ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let body = model.body.map { body in
                    MediaLinks.rewriting(body) { url in
                        guard let reference = UploadReference(url, hosts: plan.hosts, site: plan.site) else { return nil }
                        let (medium, width) = plan.resolve(reference)
                        guard let attachmentID = known[ImportedMedia.Key(path: medium.key, announcementID: id)],
                              let attachment = attachments[attachmentID]
                        else { return nil }
                        return Self.url(of: attachment, width: width)
                    }
                }
                let restored = updatedAt[id] ?? model.updatedAt
                guard body != model.body || restored != model.updatedAt else { continue }
                if body != model.body { rewritten += 1 }
                model.body = body
                model.updatedAt = restored
                model.revision += 1
                try await model.update(on: database)
                try await AnnouncementSearchIndex.index(
                    id: id, title: model.title, body: model.body, attachmentNames: (descriptions[id] ?? []).map(\.name), on: database)
                subjects.append(.announcement(id: id, .changed))
            }
            if subjects.isEmpty { changed.domains = [] }
            changed.subjects = subjects
            return rewritten
        }
    }

    /// The URL of the stored file: for one of WordPress's resized copies (`width` wide), the
    /// variant nearest in width (or the full image, when nearer); otherwise the full file.
    static func url(of attachment: AttachmentDescription, width: Int?) -> String {
        guard let width, let fullWidth = attachment.width else { return attachment.url }
        let choices = (attachment.variants ?? []).map { ($0.width, $0.url) } + [(fullWidth, attachment.url)]
        let nearest = choices.min { a, b in
            let (da, db) = (abs(a.0 - width), abs(b.0 - width))
            return da < db || (da == db && a.0 > b.0)
        }
        return nearest?.1 ?? attachment.url
    }
}
