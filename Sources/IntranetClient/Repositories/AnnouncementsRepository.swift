import Foundation
import IntranetAPI
import RESTRepository

/// The intranet's announcements: list, read, create, replace, patch and delete, under the API
/// version the ``IntranetClient`` was built with.
///
/// Every verb comes from the `RESTRepository` protocols: `read(id:)`, `readVersioned(id:)`,
/// `readAll()`, `read(page:pageSize:)`, `pages(pageSize:)`, `allItems(pageSize:)`,
/// `create(_:)`, `update(_:id:ifMatch:)`, `update(_:of:)`, `patch(_:id:ifMatch:)`,
/// `patch(_:of:)`, `delete(id:ifMatch:)` and `delete(_:)`.
public struct AnnouncementsRepository: Creatable, Readable, Updatable, Patchable, Deletable {
    /// Announcement ids are integers.
    public typealias ID = Int
    /// A member: the version-neutral ``Announcement``.
    public typealias Entity = Announcement
    /// A list item: the body only under 1.0.
    public typealias ListItem = AnnouncementSummary
    /// Creating sends a title and a body.
    public typealias Draft = AnnouncementDraft
    /// Replacing (`PUT`) sends a title and a body; an absent body becomes `null`.
    public typealias Replacement = AnnouncementDraft
    /// Patching sends only the fields mentioned.
    public typealias Patch = AnnouncementPatch

    /// The client sending this repository's requests.
    public let client: RESTClient
    /// `/announcements`.
    public let path = "/announcements"
    /// The API version the client asks for.
    public let apiVersion: APIVersion

    /// Creates the repository.
    ///
    /// - Parameters:
    ///   - client: the client to send through (it should send `Accept-Version`).
    ///   - apiVersion: the version that client asks for.
    public init(client: RESTClient, apiVersion: APIVersion) {
        self.client = client
        self.apiVersion = apiVersion
    }

    /// The announcement behind a list item: built from the item when the list carried the
    /// body (1.0, no request), fetched by id otherwise (2.0).
    ///
    /// - Parameter summary: the list item the user opened.
    /// - Throws: a ``RepositoryError`` when the fetch fails.
    public func open(_ summary: AnnouncementSummary) async throws -> Announcement {
        if let announcement = Announcement(summary) {
            return announcement
        }
        return try await read(id: summary.id)
    }

    /// One page in a chosen order: `GET /announcements?page=&per_page=&sort=&order=`, a custom
    /// endpoint built from the same pieces as the standard verbs.
    ///
    /// - Parameters:
    ///   - page: the 1-based page number.
    ///   - pageSize: items per page (the server caps it at 100).
    ///   - sort: `id`, `title`, `createdAt` or `updatedAt`.
    ///   - descending: newest or last first when `true`.
    /// - Throws: a ``RepositoryError``.
    public func read(
        page: Int, pageSize: Int, sortedBy sort: String, descending: Bool
    ) async throws -> [AnnouncementSummary] {
        try await client.list(RESTRequest(.get, path: path, query: [
            URLQueryItem(name: "page", value: String(page)),
            URLQueryItem(name: "per_page", value: String(pageSize)),
            URLQueryItem(name: "sort", value: sort),
            URLQueryItem(name: "order", value: descending ? "desc" : "asc"),
        ]))
    }
}
