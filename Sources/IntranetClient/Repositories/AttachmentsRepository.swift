import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository
import Spearal

/// The files attached to announcements (API 3.0, `/announcements/{id}/attachments`): the list
/// and each description for whoever may read the announcement; uploads, renames, alternative
/// text, moves and removal for editors; and the files themselves, downloaded to disk.
///
/// ```swift
/// let plan = URL(fileURLWithPath: "floor-plan.png")
/// let attached = try await intranet.attachments.upload(plan, to: 7) { sent, total in
///     print("\(sent) of \(total) bytes sent")
/// }
/// try await intranet.attachments.setAlt(attached.id, of: 7, to: "The third floor")
/// for attachment in try await intranet.attachments.list(of: 7) {
///     print(attachment.name, attachment.mediaType, attachment.size)
/// }
/// let copy = FileManager.default.temporaryDirectory.appendingPathComponent(attached.name)
/// try await intranet.attachments.download(attached, to: copy)
/// ```
///
/// Files travel between disk and network without being held in memory: an upload is read
/// from its file as it is sent (signed, when the client signs, over the whole file's hash),
/// and a download is written to a temporary file beside its destination, which replaces the
/// destination once complete. An announcement the user may not read answers
/// `RepositoryError.notFound` for its attachments and their files alike.
public struct AttachmentsRepository: Sendable {
    /// The client sending the requests.
    public let client: RESTClient

    /// Creates the repository.
    public init(client: RESTClient) {
        self.client = client
    }

    // MARK: Reading

    /// The attachments of announcement `announcementID`, in order.
    ///
    /// - Throws: a `RepositoryError`: `notFound` when the announcement does not exist or the
    ///   user may not read it.
    public func list(of announcementID: Int) async throws -> [AttachmentDescription] {
        try await client.list(RESTRequest(.get, path: Self.path(of: announcementID)), as: AttachmentDescription.self)
    }

    /// One attachment's description.
    ///
    /// - Parameters:
    ///   - id: the attachment's id.
    ///   - announcementID: the announcement it is attached to.
    /// - Throws: a `RepositoryError`: `notFound` when either does not exist or the user may
    ///   not read the announcement.
    public func read(_ id: Int, of announcementID: Int) async throws -> AttachmentDescription {
        try await client.value(RESTRequest(.get, path: Self.path(of: announcementID, attachment: id)), as: AttachmentDescription.self)
    }

    // MARK: Writing (editors)

    /// Attaches a file to announcement `announcementID`, after the ones it has: the file goes
    /// as it is, read from disk as it is sent, and the server reads its type from its bytes.
    ///
    /// - Parameters:
    ///   - file: the local file.
    ///   - announcementID: the announcement.
    ///   - name: the name shown and offered for download; the file's own name by default.
    ///   - progress: called with the bytes sent so far and the file's size as they leave, on a
    ///     thread of the transport's (`URLSessionTransport` reports; a mock transport does not).
    /// - Returns: the new attachment's description.
    /// - Throws: a `RepositoryError`: `localStore` when the file cannot be read (nothing is
    ///   sent); `unauthorized`, `forbidden` for a reader, `notFound`; `unprocessable` for a
    ///   name the server refuses or an image it cannot read; `unexpectedStatus` 413 for a file
    ///   over the server's limit (its problem detail names it); `server` 507 when the server's
    ///   storage quota is full.
    public func upload(
        _ file: URL, to announcementID: Int, name: String? = nil,
        progress: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)? = nil
    ) async throws -> AttachmentDescription {
        let request = RESTRequest(.post, path: Self.path(of: announcementID), headerFields: [
            .contentType: "application/octet-stream",
            .contentDisposition: Self.contentDisposition(fileName: name ?? file.lastPathComponent),
        ])
        let response = try await UploadProgress.$observer.withValue(progress ?? UploadProgress.observer) {
            try await client.upload(request, fromFile: file)
        }
        return try response.decode(AttachmentDescription.self, using: client.coder)
    }

    /// Changes an attachment: its name, its alternative text, its place, as `change` says
    /// (a JSON Merge Patch; what it leaves `nil` stays).
    ///
    /// - Parameters:
    ///   - id: the attachment's id.
    ///   - announcementID: the announcement it is attached to.
    ///   - change: the change.
    /// - Returns: the attachment as changed.
    /// - Throws: a `RepositoryError`: `unprocessable` for an empty name, alternative text on
    ///   a file that is not an image, a negative position; `notFound`, `forbidden`.
    public func patch(_ id: Int, of announcementID: Int, with change: AttachmentPatch) async throws -> AttachmentDescription {
        let request = try client.request(
            .patch, path: Self.path(of: announcementID, attachment: id), body: SentPatch(change), contentType: client.coder.patchMediaType)
        return try await client.value(request, as: AttachmentDescription.self)
    }

    /// Renames an attachment (the name downloads are offered under).
    ///
    /// - Parameters:
    ///   - id: the attachment's id.
    ///   - announcementID: the announcement it is attached to.
    ///   - name: the new name.
    /// - Returns: the attachment as changed.
    /// - Throws: a `RepositoryError`, as ``patch(_:of:with:)``.
    @discardableResult
    public func rename(_ id: Int, of announcementID: Int, to name: String) async throws -> AttachmentDescription {
        try await patch(id, of: announcementID, with: AttachmentPatch(name: name))
    }

    /// Sets or removes an image's alternative text, which readers who cannot see it get.
    ///
    /// - Parameters:
    ///   - id: the attachment's id (an image).
    ///   - announcementID: the announcement it is attached to.
    ///   - alt: the text, or `nil` to remove it.
    /// - Returns: the attachment as changed.
    /// - Throws: a `RepositoryError`, as ``patch(_:of:with:)``.
    @discardableResult
    public func setAlt(_ id: Int, of announcementID: Int, to alt: String?) async throws -> AttachmentDescription {
        try await patch(id, of: announcementID, with: AttachmentPatch(alt: .some(alt)))
    }

    /// Moves an attachment to another place in its announcement's list; the others close up.
    ///
    /// - Parameters:
    ///   - id: the attachment's id.
    ///   - announcementID: the announcement it is attached to.
    ///   - position: the new place, from 0 (past the end: last).
    /// - Returns: the attachment as changed.
    /// - Throws: a `RepositoryError`, as ``patch(_:of:with:)``.
    @discardableResult
    public func move(_ id: Int, of announcementID: Int, to position: Int) async throws -> AttachmentDescription {
        try await patch(id, of: announcementID, with: AttachmentPatch(position: position))
    }

    /// Removes an attachment; the ones after it move up.
    ///
    /// - Parameters:
    ///   - id: the attachment's id.
    ///   - announcementID: the announcement it is attached to.
    /// - Throws: a `RepositoryError`: `notFound`, `forbidden`.
    public func delete(_ id: Int, of announcementID: Int) async throws {
        try await client.perform(RESTRequest(.delete, path: Self.path(of: announcementID, attachment: id)))
    }

    // MARK: Helpers

    static func path(of announcementID: Int) -> String {
        "/announcements/\(announcementID)/attachments"
    }

    static func path(of announcementID: Int, attachment id: Int) -> String {
        path(of: announcementID) + "/\(id)"
    }

    /// `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): the name as ASCII for
    /// servers that read only that (each other character, quotes and backslashes as `_`), and
    /// exactly in UTF-8, percent-encoded (RFC 8187).
    static func contentDisposition(fileName: String) -> String {
        let fallback = String(String.UnicodeScalarView(fileName.unicodeScalars.map { scalar in
            (0x20..<0x7F).contains(scalar.value) && scalar != "\"" && scalar != "\\" ? scalar : "_"
        }))
        let encoded = fileName.utf8.map { byte -> String in
            attributeCharacters.contains(byte) ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
        return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
    }

    /// RFC 8187's `attr-char`: the bytes an extended value carries as they are.
    private static let attributeCharacters = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~".utf8))
}

/// An ``AttachmentPatch`` as it is sent: only the properties it sets, in either format.
/// (`AttachmentPatch`'s own encoding uses `encodeIfPresent`, which Spearal sends as `null`:
/// the server would read "no position" as a position.)
private struct SentPatch: Encodable, SpearalClassNamed {
    static var spearalClassName: String { WireClass.attachment.rawValue }

    let patch: AttachmentPatch

    init(_ patch: AttachmentPatch) {
        self.patch = patch
    }

    private enum CodingKeys: String, CodingKey { case name, alt, position }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let name = patch.name { try container.encode(name, forKey: .name) }
        if let alt = patch.alt { try container.encode(alt, forKey: .alt) }
        if let position = patch.position { try container.encode(position, forKey: .position) }
    }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
