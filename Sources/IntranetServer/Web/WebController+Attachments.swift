import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// The edit page's pictures and files: attaching one (a `multipart/form-data` form, no
/// JavaScript needed) and removing one.
extension WebController {
    func addAttachmentRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.post, "/announcements/{id}/files", WebController.page(attachFile))
        routes.add(.post, "/announcements/{id}/files/{attachmentId}/delete", WebController.page(removeFile))
    }

    @Sendable func attachFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let item = try await editable(id, identity)
        // A form from another site is refused before its file is read (the token, which comes
        // with the file, is checked once it has arrived).
        if let origin = request.headers[.origin], let host = request.head.authority,
           URL(string: origin).map({ "\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" }) != host {
            throw APIError(status: .forbidden, detail: "This form has expired or did not come from this site. Go back, reload the page and try again.")
        }
        guard let attachments, let boundary = MultipartUpload.boundary(ofContentType: request.headers[.contentType] ?? "") else {
            throw APIError.unsupportedMediaType()
        }
        let upload: MultipartUpload
        do {
            upload = try await MultipartUpload.read(request.body, boundary: boundary, limit: attachments.maxBytes)
        } catch UploadError.tooLarge(let limit) {
            return attachmentsPage(item, identity, errors: [AttachmentController.tooLarge(limit).detail], status: .contentTooLarge)
        }
        defer { upload.file.discard() }
        // The token comes with the file: checked before anything is stored.
        guard identity.acceptsForm(upload.fields) else {
            throw APIError(status: .forbidden, detail: "This form has expired or did not come from this site. Go back, reload the page and try again.")
        }
        do {
            let name = try AttachmentName.checked(upload.fileName ?? "", field: "file")
            guard upload.file.size > 0 else { throw APIError.validation([.init(field: "file", message: "is empty: choose a file to attach")]) }
            let added = try await attachments.add(upload.file, name: name, to: id)
            let alt = WebForm.withoutControlCharacters(upload.fields["alt"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if added.isImage, !alt.isEmpty {
                _ = try await attachments.change(added.id, of: id, with: AttachmentPatch(alt: .some(alt)))
            }
            return Self.redirect(to: "/announcements/\(id)/edit#files")
        } catch let error as APIError where [413, 422, 507].contains(error.status.code) {
            return attachmentsPage(item, identity, errors: Self.messages(error), status: error.status)
        }
    }

    @Sendable func removeFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try await checkedForm(request, identity)
        let id = try AnnouncementController.announcementID(context)
        _ = try await editable(id, identity)
        let attachmentID = try PathID.parse(context.parameters.get("attachmentId") ?? "", notFound: "This announcement has no such file.")
        guard let attachments else { throw APIError.notFound() }
        try await attachments.remove(attachmentID, of: id)
        return Self.redirect(to: "/announcements/\(id)/edit#files")
    }

    /// The edit page of `item` with `errors` about an attachment.
    private func attachmentsPage(_ item: StoredAnnouncement, _ identity: WebIdentity, errors: [String], status: HTTPResponse.Status) -> Response {
        editPage(
            identity, heading: "Edit “\(item.title)”", action: "/announcements/\(item.id)", cancel: "/announcements/\(item.id)",
            title: item.title, body: item.markdown ?? item.body ?? "", revision: item.revision,
            publishing: WebPublishingForm.values(item, zone: timeZone, at: now()), attachments: (item.id, item.attachments), errors: errors,
            status: status)
    }

    /// The template values of the edit page's pictures and files section.
    func attachmentsSection(announcementID: Int, _ attachments: [AttachmentDescription]) -> [String: Any] {
        [
            "attachmentsAction": "/announcements/\(announcementID)/files",
            "announcementID": announcementID,
            "hasAttachments": !attachments.isEmpty,
            "attachments": attachments.map { attachment in
                var values = WebAttachments.file(attachment)
                if let width = attachment.width, let height = attachment.height { values["dimensions"] = "\(width)×\(height)" }
                if let alt = attachment.alt { values["alt"] = alt }
                return values
            },
            "maxAttachmentSize": WebAttachments.size(Int(self.attachments?.maxBytes ?? 0)),
        ]
    }
}
