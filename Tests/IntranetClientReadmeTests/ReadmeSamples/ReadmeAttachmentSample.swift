// The attachments sample of docs/swift-client.md, compiled verbatim (ReadmeSampleTests checks it).

import Foundation
import IntranetClient

/// Attaches a file to announcement `id`, telling a progress bar the share sent so far.
func attach(_ file: URL, to id: Int, with intranet: IntranetClient, progress: @escaping @Sendable (Double) -> Void) async throws -> AttachmentDescription {
    try await intranet.attachments.upload(file, to: id) { sent, total in
        progress(total > 0 ? Double(sent) / Double(total) : 1)
    }
}

/// Saves announcement `id`'s attachments into `folder`; `saved` holds the ETags of the copies
/// already there, so an unchanged file is not downloaded again. Returns the new ETags.
func saveAttachments(of id: Int, into folder: URL, saved: [Int: String], with intranet: IntranetClient) async throws -> [Int: String] {
    var etags = saved
    for attachment in try await intranet.attachments.list(of: id) {
        let copy = folder.appendingPathComponent(attachment.name)
        switch try await intranet.attachments.download(attachment, to: copy, ifNoneMatch: saved[attachment.id]) {
        case .downloaded(let file): etags[attachment.id] = file.etag
        case .notModified: break  // the copy in the folder is current
        }
    }
    return etags
}
