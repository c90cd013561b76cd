// The README's "Reading offline" sample, verbatim from its first import on.
import Foundation
import IntranetClient

func makeOfflineIntranet(_ server: URL, caches: URL) -> IntranetClient {
    let store = ResponseStore(fileURL: caches.appendingPathComponent("intranet/responses.sqlite"))
    let configuration = IntranetClientConfiguration(responseStore: store)  // network-first
    return IntranetClient(baseURL: server, apiVersion: .v2_0, configuration: configuration)
}

/// The list at once from the device, however old; nothing is sent.
func storedHeadlines(_ intranet: IntranetClient) async throws -> [String] {
    let page = try await StorePolicy.$current.withValue(.storeOnly) {
        try await intranet.announcements.read(page: 1, pageSize: 20)
    }
    if page.origin.isFromStore {
        print("kept \(Int(page.origin.age())) s ago")
    }
    return page.items.map(\.title)
}
