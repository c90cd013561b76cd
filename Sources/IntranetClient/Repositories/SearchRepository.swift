import Foundation
import IntranetAPI
import RESTRepository

/// One search over people and announcements (`GET /search`), ranked by the server: the best
/// people, then the best announcements the signed-in user may read, each with a snippet saying
/// why it matched.
///
/// ```swift
/// let results = try await intranet.search("parental leave")
/// for hit in results.announcements?.items ?? [] {
///     print(hit.title, hit.snippet.marked)   // the words that matched
/// }
/// ```
///
/// For a search box that searches as the user types, ``TypeaheadSearch`` cancels the query
/// still under way when the next one starts.
public struct SearchRepository: Sendable {
    /// Which groups a search asks for.
    public enum Groups: String, Sendable, CaseIterable {
        /// People and announcements.
        case both
        /// People only (`only=people`).
        case people
        /// Announcements only (`only=announcements`).
        case announcements
    }

    /// The client sending the requests.
    public let client: RESTClient

    /// Creates the repository.
    public init(client: RESTClient) {
        self.client = client
    }

    /// Searches.
    ///
    /// - Parameters:
    ///   - text: what to look for (at most 200 characters; the last word matches as a beginning
    ///     unless the text ends in a space; `"quoted words"` match as a phrase).
    ///   - groups: which groups to search; a group not searched is `nil` in the answer.
    ///   - page: the 1-based page of each group.
    ///   - pageSize: results per group and page (1–50).
    /// - Throws: a `RepositoryError`: `badRequest` for a blank or too long text.
    public func search(_ text: String, groups: Groups = .both, page: Int = 1, pageSize: Int = 10) async throws -> SearchResults {
        var query = [URLQueryItem(name: "q", value: text)]
        if groups != .both { query.append(URLQueryItem(name: "only", value: groups.rawValue)) }
        if page != 1 { query.append(URLQueryItem(name: "page", value: String(page))) }
        if pageSize != 10 { query.append(URLQueryItem(name: "per_page", value: String(pageSize))) }
        return try await client.value(RESTRequest(.get, path: "/search", query: query), as: SearchResults.self)
    }
}

/// A search box's searches as the user types: each ``search(_:)`` cancels the one before it,
/// so an answer to an older text never arrives after a newer one.
///
/// ```swift
/// let typeahead = TypeaheadSearch(intranet.searchRepository)
/// // on every keystroke:
/// if let results = try await typeahead.search(field.text) { show(results) }
/// ```
public actor TypeaheadSearch {
    private let repository: SearchRepository
    private let pause: Duration
    private let groups: SearchRepository.Groups
    private var current: Task<SearchResults, any Error>?

    /// Creates the search box's searcher.
    ///
    /// - Parameters:
    ///   - repository: where to search.
    ///   - pause: how long to wait after a keystroke before asking (a newer keystroke within it
    ///     cancels the older text before any request).
    ///   - groups: which groups to search.
    public init(_ repository: SearchRepository, pause: Duration = .milliseconds(120), groups: SearchRepository.Groups = .both) {
        self.repository = repository
        self.pause = pause
        self.groups = groups
    }

    /// Searches `text`, cancelling the search under way.
    ///
    /// - Returns: the results, or `nil` when a newer search replaced this one, the caller's task
    ///   was cancelled, or the text is blank.
    /// - Throws: a `RepositoryError` from the server.
    public func search(_ text: String) async throws -> SearchResults? {
        current?.cancel()
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            current = nil
            return nil
        }
        let (repository, pause, groups) = (repository, pause, groups)
        let task = Task {
            try await Task.sleep(for: pause)
            return try await repository.search(text, groups: groups)
        }
        current = task
        do {
            // The caller's cancellation (a closed screen) cancels the request too.
            let results = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            return task.isCancelled ? nil : results
        } catch {
            if task.isCancelled { return nil }
            throw error
        }
    }

    /// Cancels the search under way, if any.
    public func cancel() {
        current?.cancel()
        current = nil
    }
}
