import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import NIOCore

/// Serves `/announcements/{id}/attachments`: the list and each description for whoever may read
/// the announcement (others get its 404), and for editors uploads (`POST`, the raw file or
/// `multipart/form-data`), renames, alternative text and moves (`PATCH`), removal (`DELETE`).
struct AttachmentController: Sendable {
    let repository: any AnnouncementRepository
    let cache: ResponseCache
    let store: AttachmentStore

    static let collectionPath = "\(AnnouncementController.collectionPath)/{id}/attachments"
    static let itemPath = "\(collectionPath)/{attachmentId}"

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.collectionPath, list)
        routes.add(.post, Self.collectionPath, upload)
        routes.add(.get, Self.itemPath, show)
        routes.add(.patch, Self.itemPath, patch)
        routes.add(.delete, Self.itemPath, remove)
    }

    /// Whether `request` uploads a file: its body streams (and is signed as it streams) instead
    /// of being read whole.
    static func isUpload(_ request: Request) -> Bool {
        guard request.method == .post else { return false }
        let parts = request.uri.path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[1] == "announcements" && parts[3] == "attachments" && !parts[2].isEmpty && parts[2].allSatisfy(\.isNumber)
    }

    // MARK: Reads

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try announcementID(context)
        let representation = try Representation(request, context: context, primary: .attachment)
        let view = try await cache.view(for: context.user)
        let key = "attachments|\(representation.version.rawValue)|\(representation.cacheKey)|\(view.key)|\(id)"
        let entry = try await cache.answer(for: key, dependsOn: .announcements, keyedBy: view) {
            guard try await repository.find(id: id, visibility: view.visibility) != nil else { throw APIError.notFound() }
            let items = try await AttachmentStore.descriptions(of: [id], on: store.database)[id] ?? []
            return try Self.entry(items, as: representation, visibility: view.visibility)
        }
        return entry.response(for: request)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try announcementID(context)
        let attachmentID = try Self.attachmentID(context)
        let representation = try Representation(request, context: context, primary: .attachment)
        let view = try await cache.view(for: context.user)
        let key = "attachment|\(representation.version.rawValue)|\(representation.cacheKey)|\(view.key)|\(id)|\(attachmentID)"
        let entry = try await cache.answer(for: key, dependsOn: .announcements, keyedBy: view) {
            guard try await repository.find(id: id, visibility: view.visibility) != nil else { throw APIError.notFound() }
            guard let (model, variants) = try await AttachmentStore.find(attachmentID, of: id, on: store.database) else { throw Self.noAttachment }
            return try Self.entry(AttachmentStore.describe(model, variants: variants), as: representation, visibility: view.visibility)
        }
        return entry.response(for: request)
    }

    private static func entry(_ value: some Encodable, as representation: Representation, visibility: Visibility) throws -> CachedResponse {
        let body = try representation.encode(value)
        let etag = EntityTag.forContent(body.readableBytesView, suffix: representation.tagSuffix)
        let headers: HTTPFields = [
            .contentType: representation.contentType, .eTag: etag, .apiVersion: representation.version.rawValue, .vary: VersionMiddleware.vary,
            .cacheControl: visibility == .unrestricted ? "public, no-cache" : "private, no-cache",
        ]
        return CachedResponse(body: body, etag: etag, headers: headers)
    }

    // MARK: Writes

    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try announcementID(context)
        try await requireEditor(of: id, context: context)
        let representation = try Representation(request, context: context, primary: .attachment)
        let limit = store.maxBytes
        let contentType = request.headers[.contentType] ?? ""
        // A declared length over the limit is refused before a byte is read.
        if let declared = request.headers[.contentLength].flatMap(Int64.init), declared > limit + (contentType.lowercased().hasPrefix("multipart/") ? 64 * 1024 : 0) {
            throw Self.tooLarge(limit)
        }
        let (file, name) = try await receive(request, contentType: contentType, limit: limit)
        defer { file.discard() }
        let description = try await store.add(file, name: name, to: id)
        var response = try representation.response(description, status: .created)
        response.headers[.location] = "\(AnnouncementController.collectionPath)/\(id)/attachments/\(description.id)"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Receives the upload's file into a temporary file, with its checked name.
    private func receive(_ request: Request, contentType: String, limit: Int64) async throws -> (ReceivedFile, String) {
        do {
            if let boundary = MultipartUpload.boundary(ofContentType: contentType) {
                guard request.headers[.contentDisposition] == nil else {
                    throw APIError.badRequest("A multipart/form-data body names its file in its part 'file'; send no Content-Disposition header with it.")
                }
                let upload = try await MultipartUpload.read(request.body, boundary: boundary, limit: limit)
                do {
                    return (upload.file, try upload.fileName.map { try AttachmentName.checked($0, field: "file") } ?? Self.defaultName(for: upload.file))
                } catch {
                    upload.file.discard()
                    throw error
                }
            }
            guard !contentType.isEmpty else {
                throw APIError(status: .unsupportedMediaType, detail: "Send the file with its Content-Type (or as multipart/form-data with a part named 'file').")
            }
            // No Content-Disposition: the file is named after its type once it has arrived.
            guard let header = request.headers[.contentDisposition] else {
                let file = try await FileSink.receive(request.body, limit: limit)
                return (file, Self.defaultName(for: file))
            }
            guard let disposition = ContentDisposition(header), let name = disposition.fileName else {
                throw APIError.badRequest("Name the file: Content-Disposition: attachment; filename=\"…\" (or filename*=UTF-8''… for other characters).")
            }
            let checked = try AttachmentName.checked(name, field: "filename")
            return (try await FileSink.receive(request.body, limit: limit), checked)
        } catch UploadError.tooLarge(let limit) {
            throw Self.tooLarge(limit)
        }
    }

    @Sendable func patch(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try announcementID(context)
        let attachmentID = try Self.attachmentID(context)
        try await requireEditor(of: id, context: context)
        let representation = try Representation(request, context: context, primary: .attachment)
        let json = try await RequestBody.value(of: request, limit: 16 * 1024, allowsMergePatch: true)
        let description = try await store.change(attachmentID, of: id, with: try Self.patch(from: json))
        var response = try representation.response(description)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try announcementID(context)
        let attachmentID = try Self.attachmentID(context)
        try await requireEditor(of: id, context: context)
        try await store.remove(attachmentID, of: id)
        return Response(status: .noContent)
    }

    /// A merge patch of an attachment: `name` (a string), `alt` (a string, or `null` to remove
    /// it), `position` (a whole number); nothing else.
    ///
    /// - Throws: ``APIError`` 422 naming each unusable property.
    static func patch(from json: JSONValue) throws -> AttachmentPatch {
        guard case .object(let object) = json else { throw APIError.validation([.init(field: "", message: "must be an object")]) }
        var errors: [Problem.FieldError] = []
        let unknown = object.keys.filter { !["name", "alt", "position"].contains($0) }.sorted()
        if !unknown.isEmpty { errors.append(.init(field: unknown[0], message: "is not a property of an attachment (name, alt, position)")) }
        var patch = AttachmentPatch()
        switch object["name"] {
        case nil: break
        case .string(let name)?: patch.name = name
        default: errors.append(.init(field: "name", message: "must be a string"))
        }
        switch object["alt"] {
        case nil: break
        case .null?: patch.alt = .some(nil)
        case .string(let alt)?: patch.alt = .some(alt)
        default: errors.append(.init(field: "alt", message: "must be a string or null"))
        }
        switch object["position"] {
        case nil: break
        case .number(let number)? where number >= 0 && number < 1_000_000 && number.rounded() == number: patch.position = Int(number)
        default: errors.append(.init(field: "position", message: "must be a whole number from 0"))
        }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return patch
    }

    // MARK: Helpers

    /// Checks that the caller may change announcement `id`'s attachments: 401 signed out; for
    /// a reader, 404 when the announcement is hidden from them and 403 otherwise.
    private func requireEditor(of id: Int, context: AppRequestContext) async throws {
        if let user = context.user, user.role < .editor, try await repository.find(id: id, visibility: context.visibility) == nil {
            throw APIError.notFound()
        }
        _ = try context.requireRole(.editor)
    }

    private func announcementID(_ context: AppRequestContext) throws -> Int {
        try PathID.parse(context, notFound: "No announcement has this id.")
    }

    private static func attachmentID(_ context: AppRequestContext) throws -> Int {
        try PathID.parse(context.parameters.get("attachmentId") ?? "", notFound: "This announcement has no attachment with this id.")
    }

    /// The name of a file sent without one: `upload` and the extension of its type.
    static func defaultName(for file: ReceivedFile) -> String {
        if let format = ImageFormat(sniffing: file.head) { return "upload.\(format == .jpeg ? "jpg" : format.rawValue)" }
        let type = FileType.detect(head: file.head, name: "")
        let extensions = ["application/pdf": "pdf", "application/zip": "zip", "image/svg+xml": "svg", "text/html": "html", "application/xml": "xml"]
        if let known = extensions[type] { return "upload.\(known)" }
        return type.hasPrefix("text/plain") ? "upload.txt" : "upload.bin"
    }

    static let noAttachment = APIError.notFound("This announcement has no attachment with this id.")

    static func tooLarge(_ limit: Int64) -> APIError {
        APIError(
            status: .contentTooLarge,
            detail: "This file is larger than the \(limit) bytes an attachment may have (ATTACHMENT_MAX_BYTES); nothing was stored.")
    }
}
