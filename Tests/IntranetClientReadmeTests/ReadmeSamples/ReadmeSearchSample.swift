// The search sample of docs/swift-client.md, compiled verbatim (ReadmeSampleTests checks it).

import IntranetClient

/// The titles a search box shows for what has been typed so far; nil when a newer keystroke
/// replaced this search.
func suggestions(for text: String, using typeahead: TypeaheadSearch) async throws -> [String]? {
    guard let results = try await typeahead.search(text) else { return nil }
    return (results.people?.items.map(\.name) ?? []) + (results.announcements?.items.map(\.title) ?? [])
}
// let typeahead = TypeaheadSearch(intranet.searchRepository)
