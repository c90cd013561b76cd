// Compiled verbatim from docs/swift-client.md ("Live changes"); keep the two in step.

import IntranetClient

/// Keeps a screen's feed current while it is on screen: new posts appear, changed ones
/// refresh, deleted ones go. Cancel the task when the screen goes away.
func keepCurrent(_ feed: AnnouncementFeed, with intranet: IntranetClient) -> Task<Void, any Error> {
    Task { try await feed.follow(intranet.changes()) }
}

/// Or handle each change yourself, resuming after the last one handled in an earlier run.
func printChanges(of intranet: IntranetClient, after lastEventID: String?) async throws {
    for try await change in intranet.changes(resumingAfter: lastEventID) {
        print(change.kind.rawValue, change.id.map(String.init) ?? "-", change.eventID ?? "")
    }
}
