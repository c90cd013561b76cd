import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Serves attached files' bytes: `GET /announcements/{id}/attachments/{attachmentId}/file`, and
/// an image's variants at `…/file/{width}`.
///
/// Every read is decided by the announcement's read rules, through the same views and cache as
/// the announcement's detail: a file of an announcement the caller may not read is the same 404
/// as the announcement. The answers:
/// - a strong `ETag` (the served bytes' SHA-256), `304` on `If-None-Match`;
/// - `Range` per RFC 9110: one range `206`, several `multipart/byteranges`, none in the file
///   `416`, malformed or too many: the whole file; `If-Range` with another tag: the whole file;
/// - `Cache-Control: public, max-age=3600` for an announcement anyone signed out may read (the
///   bytes under a URL never change; a shared cache may keep them for an hour after access is
///   taken away), `private, no-cache` for the rest;
/// - never rendered in the site's origin: `X-Content-Type-Options: nosniff`,
///   `Content-Security-Policy: default-src 'none'; sandbox`, `Cross-Origin-Resource-Policy:
///   same-origin`, and `Content-Disposition: attachment` for everything but the images Intranet
///   cleaned itself (JPEG, PNG, WebP, GIF), which are `inline`.
///
/// Files up to 1 MiB (every variant, most pictures) are kept in memory with the answer; larger
/// ones stream from the ``BlobStore``.
struct AttachmentFileController: Sendable {
    let repository: any AnnouncementRepository
    let cache: ResponseCache
    let database: any Database
    let blobs: any BlobStore

    static let filePath = "\(AnnouncementController.collectionPath)/{id}/attachments/{attachmentId}/file"
    static let variantPath = "\(filePath)/{width}"
    /// Files up to this size are kept in memory with their answer.
    static let keptInMemory: Int64 = 1 << 20
    /// The media types served `inline`: only images Intranet decoded and encoded itself.
    static let inlineTypes: Set<String> = ["image/jpeg", "image/png", "image/webp", "image/gif"]

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.filePath, serve)
        routes.add(.get, Self.variantPath, serve)
    }

    /// Whether `path` is a file's (or a variant's) address.
    static func isFilePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 7 || parts.count == 8, parts[0].isEmpty, parts[1] == "announcements", parts[3] == "attachments", parts[5] == "file"
        else { return false }
        return [parts[2], parts[4]].allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    @Sendable func serve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let announcementID = try PathID.parse(context, notFound: "No announcement has this id.")
        let attachmentID = try PathID.parse(context.parameters.get("attachmentId") ?? "", notFound: "This announcement has no attachment with this id.")
        let width = try context.parameters.get("width").map { try PathID.parse($0, notFound: "This attachment has no variant of this width.") }
        let view = try await cache.view(for: context.user)
        let key = "file|\(view.key)|\(announcementID)|\(attachmentID)|\(width ?? 0)"
        let entry = try await cache.answer(for: key, dependsOn: .announcements, keyedBy: view) {
            try await build(announcementID: announcementID, attachmentID: attachmentID, width: width, view: view)
        }
        return respond(entry, to: request)
    }

    /// The answer for one file as `view` may see it, its bytes when small.
    private func build(announcementID: Int, attachmentID: Int, width: Int?, view: ResponseCache.View) async throws -> CachedResponse {
        guard let announcement = try await repository.find(id: announcementID, visibility: view.visibility) else { throw APIError.notFound() }
        guard let (model, variants) = try await AttachmentStore.find(attachmentID, of: announcementID, on: database) else {
            throw APIError.notFound("This announcement has no attachment with this id.")
        }
        var reference = StoredFileReference(hash: model.fileHash, size: model.size)
        if let width {
            guard let variant = variants.first(where: { $0.id?.width == width }) else {
                throw APIError.notFound("This attachment has no variant of this width.")
            }
            reference = StoredFileReference(hash: variant.fileHash, size: variant.size)
        }
        let etag = "\"\(reference.hash)\""
        let inline = Self.inlineTypes.contains(model.mediaType)
        var headers: HTTPFields = [
            .contentType: model.mediaType,
            .eTag: etag,
            .acceptRanges: "bytes",
            .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "default-src 'none'; sandbox",
            .crossOriginResourcePolicy: "same-origin",
            .contentDisposition: ContentDisposition.header(type: inline ? "inline" : "attachment", fileName: model.name),
        ]
        let isPublic = view.visibility == .unrestricted && !announcement.isRestricted
        headers[.cacheControl] = isPublic ? "public, max-age=3600" : "private, no-cache"
        guard reference.size <= Self.keptInMemory else {
            return CachedResponse(body: ByteBuffer(), etag: etag, headers: headers, file: reference)
        }
        var body = ByteBuffer()
        for try await piece in blobs.read(reference.hash, size: reference.size, range: 0..<reference.size, on: database) {
            var piece = piece
            body.writeBuffer(&piece)
        }
        return CachedResponse(body: body, etag: etag, headers: headers)
    }

    /// The answer to `request` from `entry`: `304`, the whole file, or the ranges asked for.
    private func respond(_ entry: CachedResponse, to request: Request) -> Response {
        if EntityTag.noneMatchHits(request.headers[.ifNoneMatch], etag: entry.etag) {
            return Response(status: .notModified, headers: [.eTag: entry.etag, .cacheControl: entry.headers[.cacheControl] ?? "no-cache"])
        }
        let size = entry.file?.size ?? Int64(entry.body.readableBytes)
        // If-Range names the tag the client holds: another tag (or a date, which these answers
        // do not give) means the whole file.
        let ranges = request.headers[.ifRange].map { $0 == entry.etag } ?? true ? ByteRanges(request.headers[.range], size: size) : .whole
        var headers = entry.headers
        switch ranges {
        case .whole:
            headers[.contentLength] = String(size)
            return Response(status: .ok, headers: headers, body: body(of: entry, range: 0..<size))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            headers[.contentType] = nil
            headers[.contentDisposition] = nil
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .parts(let parts) where parts.count == 1:
            let range = parts[0]
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers, body: body(of: entry, range: range))
        case .parts(let parts):
            let boundary = "intranet-" + UUID().uuidString.lowercased()
            let type = entry.headers[.contentType] ?? "application/octet-stream"
            let heads = parts.map { range in
                ByteBuffer(string: "\r\n--\(boundary)\r\nContent-Type: \(type)\r\nContent-Range: bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)\r\n\r\n")
            }
            let tail = ByteBuffer(string: "\r\n--\(boundary)--\r\n")
            let length = heads.reduce(0) { $0 + $1.readableBytes } + parts.reduce(0) { $0 + Int($1.count) } + tail.readableBytes
            headers[.contentType] = "multipart/byteranges; boundary=\(boundary)"
            headers[.contentLength] = String(length)
            let pieces = zip(heads, parts).map { (head: $0, range: $1) }
            let streams = self
            return Response(status: .partialContent, headers: headers, body: ResponseBody { writer in
                for piece in pieces {
                    try await writer.write(piece.head)
                    try await streams.write(entry, range: piece.range, to: &writer)
                }
                try await writer.write(tail)
                try await writer.finish(nil)
            })
        }
    }

    /// The bytes `range` of the entry's file, from memory or streamed.
    private func body(of entry: CachedResponse, range: Range<Int64>) -> ResponseBody {
        if entry.file == nil {
            return ResponseBody(byteBuffer: entry.body.getSlice(at: entry.body.readerIndex + Int(range.lowerBound), length: Int(range.count)) ?? ByteBuffer())
        }
        let streams = self
        return ResponseBody { writer in
            try await streams.write(entry, range: range, to: &writer)
            try await writer.finish(nil)
        }
    }

    private func write(_ entry: CachedResponse, range: Range<Int64>, to writer: inout some ResponseBodyWriter) async throws {
        guard let file = entry.file else {
            try await writer.write(entry.body.getSlice(at: entry.body.readerIndex + Int(range.lowerBound), length: Int(range.count)) ?? ByteBuffer())
            return
        }
        for try await piece in blobs.read(file.hash, size: file.size, range: range, on: database) {
            try await writer.write(piece)
        }
    }
}

extension HTTPField.Name {
    /// `Cross-Origin-Resource-Policy`.
    static var crossOriginResourcePolicy: Self { Self("Cross-Origin-Resource-Policy")! }
}
