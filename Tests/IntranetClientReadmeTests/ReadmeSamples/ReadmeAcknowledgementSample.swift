// The acknowledgements sample of docs/swift-client.md, compiled verbatim (ReadmeSampleTests checks it).

import IntranetClient

/// What the "I have read and understood" button says after a tap: confirmed, or kept on the
/// device until the server can be reached.
func confirm(_ id: Int, with intranet: IntranetClient) async throws -> String {
    switch try await intranet.acknowledge(id) {
    case .confirmed(let receipt): return "Confirmed (round \(receipt.round))"
    case .queued: return "Confirmed on this device; it will be sent when you are back online"
    }
}
// Later, when the network is back (AnnouncementFeed does it on every refresh):
// await intranet.acknowledgements.sendQueued()
