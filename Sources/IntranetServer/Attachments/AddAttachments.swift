import FluentKit
import SQLKit

/// Attachments (API 3.0): stored files by the SHA-256 of their bytes (`stored_files`, with
/// when each stopped being used), their bytes in chunks (`stored_file_chunks`, the database
/// ``BlobStore``), each announcement's attachments in order, and the smaller variants of
/// attached images.
struct AddAttachments: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(StoredFiles.schema)
            .field("hash", .string, .identifier(auto: false))
            .field("size", .int64, .required)
            .field("created_at", .datetime, .required)
            .field("unused_since", .datetime)
            .create()
        try await database.schema(DatabaseBlobStore.schema)
            .field("hash", .string, .required)
            .field("seq", .int64, .required)
            .field("data", .data, .required)
            .compositeIdentifier(over: "hash", "seq")
            .create()
        try await database.schema(AttachmentModel.schema)
            .field("id", .int64, .identifier(auto: true))
            .field("announcement_id", .int64, .required)
            .field("position", .int64, .required)
            .field("name", .string, .required)
            .field("media_type", .string, .required)
            .field("size", .int64, .required)
            .field("sha256", .string, .required)
            .field("file_hash", .string, .required)
            .field("width", .int64)
            .field("height", .int64)
            .field("alt", .string)
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema(AttachmentVariantModel.schema)
            .field("attachment_id", .int64, .required)
            .field("width", .int64, .required)
            .field("height", .int64, .required)
            .field("file_hash", .string, .required)
            .field("size", .int64, .required)
            .compositeIdentifier(over: "attachment_id", "width")
            .create()
        try await database.createIndex(named: "attachments_by_announcement", on: AttachmentModel.schema, column: "announcement_id")
        try await database.createIndex(named: "attachments_by_file", on: AttachmentModel.schema, column: "file_hash")
        try await database.createIndex(named: "attachments_by_upload", on: AttachmentModel.schema, column: "sha256")
        try await database.createIndex(named: "attachment_variants_by_file", on: AttachmentVariantModel.schema, column: "file_hash")
    }

    func revert(on database: any Database) async throws {
        for schema in [AttachmentVariantModel.schema, AttachmentModel.schema, DatabaseBlobStore.schema, StoredFiles.schema] {
            try await database.schema(schema).delete()
        }
    }
}
