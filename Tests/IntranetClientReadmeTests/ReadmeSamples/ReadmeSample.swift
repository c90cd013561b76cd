// The Swift code blocks of the README's "Swift client" section, verbatim, so the sample compiles.
// ReadmeSampleTests checks that the README still contains this exact code. This file imports
// only Foundation and IntranetClient: it proves one import is enough for an app.

import Foundation
import IntranetClient

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
    let newest = try await announcements.read(page: 1, pageSize: 5, sortedBy: .createdAt, order: .descending)
    print("\(newest.info.total ?? 0) in all; newest:", newest.items.first?.title ?? "none")

    var current = try await announcements.createVersioned(
        AnnouncementDraft(title: "Canteen closed", body: "<p>Friday only.</p>"))
    do {
        // Clears the body; sent with If-Match, so a concurrent edit is not overwritten.
        current = try await announcements.patch(AnnouncementPatch(body: .null), of: current)
    } catch let conflict as VersionConflict<Announcement> {
        print("Changed meanwhile:", conflict.current?.title ?? "(deleted)")
        return titles  // theirs stays: show it, let the user decide
    } catch let error as RepositoryError {
        print(error.userMessage)  // e.g. "title must not be empty"
    }
    try await announcements.delete(current)  // If-Match again: only what we last saw
    return titles
}
