import Crypto
import FluentKit
import HTTPTypes
import Foundation
import IntranetAPI
import NIOCore
import SQLKit

/// Announcements' attachments: adding an uploaded file (an image cleaned and resized first),
/// describing, renaming, reordering and removing them. Every write goes through the
/// ``ChangePipeline`` as a change of the announcement (its revision moves, so its `ETag` does),
/// reaching caches, other instances and live streams the way every write does.
///
/// The same content is stored once (``StoredFiles``), whoever attached it where: an image
/// uploaded again is not even decoded again.
struct AttachmentStore: Sendable {
    let database: any Database
    let changes: ChangePipeline
    let blobs: any BlobStore
    var images = ImageProcessor()
    /// Most bytes one upload may have (`ATTACHMENT_MAX_BYTES`).
    var maxBytes: Int64 = AppConfiguration.defaultAttachmentMaxBytes
    /// Most bytes all stored files may have together (`ATTACHMENT_QUOTA_BYTES`); `nil` for no
    /// limit.
    var quotaBytes: Int64?
    var now: @Sendable () -> Date = { Date() }

    /// What to store for one upload: the served file and, for an image, its variants.
    private struct Prepared: Sendable {
        struct File: Sendable {
            var hash: String
            var size: Int64
            var source: Source
        }
        enum Source: Sendable {
            case temporaryFile(String)
            case bytes(ByteBuffer)
            /// Already stored: nothing to write.
            case stored
        }
        var mediaType: String
        var served: File
        var width: Int?
        var height: Int?
        var variants: [(width: Int, height: Int, file: File)]
    }

    // MARK: Adding

    /// Attaches the uploaded `file` to announcement `announcementID`, last in its list, under
    /// `name`.
    ///
    /// - Throws: ``APIError`` 404 when the announcement does not exist; 422 for an image that
    ///   cannot be read or has too many pixels; 507 when the quota would be passed. Nothing is
    ///   stored then.
    func add(_ file: ReceivedFile, name: String, to announcementID: Int) async throws -> AttachmentDescription {
        let prepared = try await prepare(file, name: name)
        try await checkQuota(adding: prepared)
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        let blobs = self.blobs
        let quota = self
        return try await changes.write(.announcements, on: database) { database, changed in
            try await Self.touch(announcementID, at: timestamp, on: database)
            // Again inside the write: uploads that passed the check side by side are counted
            // one after the other here (on SQLite exactly; PostgreSQL may pass it by those in
            // flight at once).
            try await quota.checkQuota(adding: prepared, on: database)
            for stored in [prepared.served] + prepared.variants.map(\.file) {
                guard try await StoredFiles.use(stored.hash, size: stored.size, at: timestamp, on: database) else { continue }
                switch stored.source {
                case .temporaryFile(let path): try await blobs.write(stored.hash, fromFileAt: path, size: stored.size, on: database)
                case .bytes(let bytes): try await blobs.write(stored.hash, bytes: bytes, on: database)
                case .stored:
                    // The clean-up removed it since it was found: rare; the client sends it again.
                    throw APIError(status: .serviceUnavailable, detail: "The stored copy of this image was removed a moment ago; upload it again.")
                }
            }
            let model = AttachmentModel()
            model.announcementID = announcementID
            model.position = try await AttachmentModel.query(on: database).filter(\.$announcementID == announcementID).count()
            model.name = name
            model.mediaType = prepared.mediaType
            model.size = prepared.served.size
            model.sha256 = file.sha256
            model.fileHash = prepared.served.hash
            model.width = prepared.width
            model.height = prepared.height
            model.createdAt = timestamp
            try await model.create(on: database)
            let id = try model.requireID()
            let variants = prepared.variants.map {
                AttachmentVariantModel(attachmentID: id, width: $0.width, height: $0.height, fileHash: $0.file.hash, size: $0.file.size)
            }
            try await variants.create(on: database)
            try await AnnouncementSearchIndex.reindex(id: announcementID, on: database)
            changed.subjects = [.announcement(id: announcementID, .changed)]
            return Self.describe(model, variants: variants)
        }
    }

    /// Reads what to store: an image decoded, cleaned and resized (or, when the same upload is
    /// already attached somewhere, what it became then); any other file as it is.
    private func prepare(_ file: ReceivedFile, name: String) async throws -> Prepared {
        guard let format = ImageFormat(sniffing: file.head) else {
            let served = Prepared.File(hash: file.sha256, size: file.size, source: .temporaryFile(file.path))
            return Prepared(mediaType: FileType.detect(head: file.head, name: name), served: served, variants: [])
        }
        if let earlier = try await earlierImage(uploaded: file.sha256) { return earlier }
        let processed: ProcessedImage
        do {
            processed = try await images.process(fileAt: file.path, format: format)
        } catch let refusal as ImageRefusal {
            throw APIError(status: .unprocessableContent, detail: refusal.message)
        }
        func stored(_ image: EncodedImage) -> Prepared.File {
            Prepared.File(hash: Data(SHA256.hash(data: Data(image.bytes.readableBytesView))).hexString, size: Int64(image.bytes.readableBytes), source: .bytes(image.bytes))
        }
        return Prepared(
            mediaType: processed.format.mediaType, served: stored(processed.full), width: processed.full.width, height: processed.full.height,
            variants: processed.variants.map { ($0.width, $0.height, stored($0)) })
    }

    /// What an image uploaded earlier with the same bytes became, if it is still attached.
    private func earlierImage(uploaded sha256: String) async throws -> Prepared? {
        guard let earlier = try await AttachmentModel.query(on: database).filter(\.$sha256 == sha256).filter(\.$width != nil).first(),
              let width = earlier.width, let height = earlier.height
        else { return nil }
        let variants = try await AttachmentVariantModel.query(on: database).filter(\.$id.$attachmentID == earlier.requireID()).all()
        return Prepared(
            mediaType: earlier.mediaType, served: .init(hash: earlier.fileHash, size: earlier.size, source: .stored), width: width, height: height,
            variants: variants.sorted { $0.id!.width < $1.id!.width }.map {
                ($0.id!.width, $0.height, Prepared.File(hash: $0.fileHash, size: $0.size, source: .stored))
            })
    }

    /// Refuses an upload whose new bytes would take the stored files past the quota.
    private func checkQuota(adding prepared: Prepared, on database: (any Database)? = nil) async throws {
        guard let quotaBytes else { return }
        let database = database ?? self.database
        let files = [prepared.served] + prepared.variants.map(\.file)
        let known = try await StoredFiles.stored(files.map(\.hash), on: database)
        let new = files.filter { !known.contains($0.hash) }
        let totals = try await StoredFiles.totals(on: database)
        let adding = new.reduce(Int64(0)) { $0 + $1.size }
        guard totals.bytes + adding <= quotaBytes else {
            throw APIError(
                status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
                detail: "The file storage is full: \(totals.bytes) of \(quotaBytes) bytes are used (ATTACHMENT_QUOTA_BYTES) and this file "
                    + "needs \(adding) more. Remove attachments no longer needed, or ask an admin to raise the quota.")
        }
    }

    // MARK: Reading

    /// The attachments of each of `announcementIDs`, in order.
    static func descriptions(of announcementIDs: [Int], on database: any Database) async throws -> [Int: [AttachmentDescription]] {
        guard !announcementIDs.isEmpty else { return [:] }
        let models = try await AttachmentModel.query(on: database).filter(\.$announcementID ~~ announcementIDs)
            .sort(\.$position).sort(\.$id).all()
        guard !models.isEmpty else { return [:] }
        // The variants of every attachment found, read in slices far below the databases'
        // limits on a statement's parameters (announcements may hold any number of files).
        var variants: [AttachmentVariantModel] = []
        for slice in try models.map({ try $0.requireID() }).chunked(by: 1_000) {
            variants += try await AttachmentVariantModel.query(on: database).filter(\.$id.$attachmentID ~~ Array(slice)).all()
        }
        let variantsByAttachment = Dictionary(grouping: variants) { $0.id!.attachmentID }
        var result: [Int: [AttachmentDescription]] = [:]
        for model in models {
            result[model.announcementID, default: []].append(describe(model, variants: variantsByAttachment[model.id!] ?? []))
        }
        return result
    }

    /// One attachment of announcement `announcementID`, with its variants; `nil` when it has
    /// none with this id.
    static func find(_ id: Int, of announcementID: Int, on database: any Database) async throws -> (AttachmentModel, [AttachmentVariantModel])? {
        guard let model = try await AttachmentModel.find(id, on: database), model.announcementID == announcementID else { return nil }
        let variants = try await AttachmentVariantModel.query(on: database).filter(\.$id.$attachmentID == id).all()
        return (model, variants)
    }

    /// The wire description of an attachment.
    static func describe(_ model: AttachmentModel, variants: [AttachmentVariantModel]) -> AttachmentDescription {
        let id = model.id ?? 0
        let url = fileURL(announcementID: model.announcementID, attachmentID: id)
        return AttachmentDescription(
            id: id, name: model.name, mediaType: model.mediaType, size: Int(model.size), sha256: model.sha256, url: url, width: model.width,
            height: model.height, alt: model.width == nil ? nil : model.alt,
            variants: model.width == nil
                ? nil : variants.sorted { $0.id!.width < $1.id!.width }.map { ImageVariant(width: $0.id!.width, height: $0.height, url: "\(url)/\($0.id!.width)") })
    }

    /// Where an attachment's bytes are read.
    static func fileURL(announcementID: Int, attachmentID: Int) -> String {
        "\(AnnouncementController.collectionPath)/\(announcementID)/attachments/\(attachmentID)/file"
    }

    // MARK: Changing

    /// Renames, sets the alternative text of, or moves attachment `id` of `announcementID`.
    ///
    /// - Throws: ``APIError`` 404 when it has no such attachment; 422 for a name that is not
    ///   one, alternative text on a file that is not an image or longer than 1,000 characters,
    ///   or a position outside the list.
    func change(_ id: Int, of announcementID: Int, with patch: AttachmentPatch) async throws -> AttachmentDescription {
        let name = try patch.name.map { try AttachmentName.checked($0) }
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        return try await changes.write(.announcements, on: database) { database, changed in
            try await Self.touch(announcementID, at: timestamp, on: database)
            guard let (model, variants) = try await Self.find(id, of: announcementID, on: database) else {
                throw APIError.notFound("This announcement has no attachment with this id.")
            }
            if let name, name != model.name {
                model.name = name
                try await model.update(on: database)
                try await AnnouncementSearchIndex.reindex(id: announcementID, on: database)
            }
            if let alt = patch.alt {
                let text = alt?.trimmingCharacters(in: .whitespacesAndNewlines)
                guard model.width != nil || text == nil else {
                    throw APIError.validation([.init(field: "alt", message: "is for images only; this file is \(model.mediaType)")])
                }
                guard (text?.count ?? 0) <= 1_000 else { throw APIError.validation([.init(field: "alt", message: "must be at most 1000 characters")]) }
                model.alt = text?.isEmpty == true ? nil : text
            }
            try await model.update(on: database)
            if let position = patch.position {
                try await Self.move(id, of: announcementID, to: position, on: database)
                model.position = position
            }
            changed.subjects = [.announcement(id: announcementID, .changed)]
            return Self.describe(model, variants: variants)
        }
    }

    /// Removes attachment `id` of `announcementID` (its file stays for the clean-up's grace
    /// period); the ones after it move up.
    ///
    /// - Throws: ``APIError`` 404 when it has no such attachment.
    func remove(_ id: Int, of announcementID: Int) async throws {
        let timestamp = FluentAnnouncementRepository.millisecondPrecision(now())
        try await changes.write(.announcements, on: database) { database, changed in
            try await Self.touch(announcementID, at: timestamp, on: database)
            guard let (model, _) = try await Self.find(id, of: announcementID, on: database) else {
                throw APIError.notFound("This announcement has no attachment with this id.")
            }
            try await AttachmentVariantModel.query(on: database).filter(\.$id.$attachmentID == id).delete()
            try await model.delete(on: database)
            try await Self.renumber(announcementID, on: database)
            try await AnnouncementSearchIndex.reindex(id: announcementID, on: database)
            changed.subjects = [.announcement(id: announcementID, .changed)]
        }
    }

    /// Removes every attachment of an announcement being deleted, in its transaction; the files
    /// are left to the clean-up.
    static func removeAll(of announcementID: Int, on database: any Database) async throws {
        let ids = try await AttachmentModel.query(on: database).filter(\.$announcementID == announcementID).all(\.$id).compactMap { $0 }
        guard !ids.isEmpty else { return }
        try await AttachmentVariantModel.query(on: database).filter(\.$id.$attachmentID ~~ ids).delete()
        try await AttachmentModel.query(on: database).filter(\.$announcementID == announcementID).delete()
    }

    /// Moves attachment `id` to `position` in its announcement's list.
    private static func move(_ id: Int, of announcementID: Int, to position: Int, on database: any Database) async throws {
        var order = try await AttachmentModel.query(on: database).filter(\.$announcementID == announcementID).sort(\.$position).sort(\.$id).all()
        guard (0..<order.count).contains(position) else {
            throw APIError.validation([.init(field: "position", message: "must be from 0 to \(order.count - 1), a place in the announcement's list")])
        }
        guard let from = order.firstIndex(where: { $0.id == id }) else { return }
        order.insert(order.remove(at: from), at: position)
        for (index, model) in order.enumerated() where model.position != index {
            model.position = index
            try await model.update(on: database)
        }
    }

    /// Numbers an announcement's attachments 0, 1, 2… in their order.
    private static func renumber(_ announcementID: Int, on database: any Database) async throws {
        let order = try await AttachmentModel.query(on: database).filter(\.$announcementID == announcementID).sort(\.$position).sort(\.$id).all()
        for (index, model) in order.enumerated() where model.position != index {
            model.position = index
            try await model.update(on: database)
        }
    }

    /// Locks announcement `id` for the write (on PostgreSQL) and moves its revision and
    /// `updatedAt` on: its attachments are part of it.
    ///
    /// - Throws: ``APIError`` 404 when it does not exist.
    private static func touch(_ id: Int, at timestamp: Date, on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { throw BlobStoreError.notSQL }
        let rows = try await sql.select().column("updated_at").from(AnnouncementModel.schema).where("id", .equal, id).for(.update).all()
        guard let row = rows.first else { throw APIError.notFound() }
        let updatedAt = max(timestamp, try row.decode(column: "updated_at", as: Date.self))
        try await sql.update(AnnouncementModel.schema).set(SQLIdentifier("revision"), to: SQLRaw("revision + 1"))
            .set("updated_at", to: SQLBind(updatedAt)).where("id", .equal, id).run()
    }
}
