import FluentKit
import Foundation

/// One file attached to an announcement, at a place in its list.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class AttachmentModel: Model, @unchecked Sendable {
    static let schema = "attachments"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "announcement_id")
    var announcementID: Int

    /// Its place in the announcement's list, from 0.
    @Field(key: "position")
    var position: Int

    @Field(key: "name")
    var name: String

    /// As read from the bytes served.
    @Field(key: "media_type")
    var mediaType: String

    /// Bytes served (the cleaned copy of an image).
    @Field(key: "size")
    var size: Int64

    /// SHA-256 of the bytes uploaded.
    @Field(key: "sha256")
    var sha256: String

    /// The stored file served (``StoredFiles``).
    @Field(key: "file_hash")
    var fileHash: String

    @OptionalField(key: "width")
    var width: Int?

    @OptionalField(key: "height")
    var height: Int?

    @OptionalField(key: "alt")
    var alt: String?

    @Field(key: "created_at")
    var createdAt: Date

    init() {}
}

/// A smaller copy of an attached image.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class AttachmentVariantModel: Model, @unchecked Sendable {
    static let schema = "attachment_variants"

    final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "attachment_id")
        var attachmentID: Int

        @Field(key: "width")
        var width: Int

        init() {}

        init(attachmentID: Int, width: Int) {
            self.attachmentID = attachmentID
            self.width = width
        }

        static func == (lhs: IDValue, rhs: IDValue) -> Bool { lhs.attachmentID == rhs.attachmentID && lhs.width == rhs.width }

        func hash(into hasher: inout Hasher) {
            hasher.combine(attachmentID)
            hasher.combine(width)
        }
    }

    @CompositeID
    var id: IDValue?

    @Field(key: "height")
    var height: Int

    @Field(key: "file_hash")
    var fileHash: String

    @Field(key: "size")
    var size: Int64

    init() {}

    init(attachmentID: Int, width: Int, height: Int, fileHash: String, size: Int64) {
        id = IDValue(attachmentID: attachmentID, width: width)
        self.height = height
        self.fileHash = fileHash
        self.size = size
    }
}
