// The Swift code blocks of README-section.md ("Swift client"), verbatim, so the sample compiles.
// ReadmeSampleTests checks that the README still contains this exact code.

import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository

func makeIntranet() -> IntranetClient? {
    guard let server = URL(string: "http://127.0.0.1:8080") else { return nil }
    return IntranetClient(baseURL: server, apiVersion: .v2_0)
}

func tour(_ intranet: IntranetClient) async throws -> [String] {
    let announcements = intranet.announcements
    var titles: [String] = []
    for try await item in announcements.allItems(pageSize: 50) {  // every page, lazily
        titles.append(item.title)
    }
    let created = try await announcements.createVersioned(
        AnnouncementDraft(title: "Canteen closed", body: "<p>Friday only.</p>"))
    do {
        // Clears the body; sent with If-Match, so a concurrent edit is not overwritten.
        _ = try await announcements.patch(AnnouncementPatch(body: .null), of: created)
    } catch RepositoryError.preconditionFailed(_, let current) {
        print("Changed meanwhile:", current?.value(as: Announcement.self)?.title ?? "?")
    } catch let error as RepositoryError {
        print(error.userMessage)  // e.g. "title must not be empty"
    }
    try await announcements.delete(id: created.value.id)
    return titles
}
