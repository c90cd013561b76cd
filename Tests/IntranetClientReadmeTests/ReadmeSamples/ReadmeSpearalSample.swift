import Foundation
import IntranetClient

func makeSpearalIntranet(_ server: URL) -> IntranetClient {
    IntranetClient(baseURL: server, apiVersion: .v2_0, format: .spearal)  // every call as before
}

/// Titles only: the server sends neither bodies nor dates, and the type says so.
func headlines(_ intranet: IntranetClient) async throws -> [String] {
    let page = try await intranet.announcements.read(page: 1, pageSize: 50, fields: [.title])
    return page.items.compactMap(\.title)  // PartialAnnouncement: all but the id optional
}
