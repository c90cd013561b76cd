import Foundation
import IntranetAPI
import RESTRepository

/// The intranet's announcements: list, read, create, replace, patch and delete, under the API
/// version the ``IntranetClient`` was built with.
///
/// Every verb comes from the `RESTRepository` protocols: `read(id:)`, `readVersioned(id:)`,
/// `read(page:pageSize:)` and `read(page:pageSize:sortedBy:order:)`, `pages(pageSize:)`,
/// `allItems(pageSize:)`, `create(_:)`, `createVersioned(_:)`; the writes `update(_:of:)`,
/// `patch(_:of:)`, `delete(_:)` (guarded by the `ETag` read), `…(id:ifMatch:)` with a tag of
/// your own, and the explicit `updateUnconditionally`, `patchUnconditionally`,
/// `deleteUnconditionally`. A lost race is a `VersionConflict<Announcement>`.
public struct AnnouncementsRepository: Creatable, Sortable, Updatable, Patchable, Deletable {
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

    /// What the server sorts announcements by (`sort=`).
    public enum SortField: String, Sendable, CaseIterable {
        /// The id: the order they were created in (the default order).
        case id
        /// The title, alphabetically.
        case title
        /// When they were created.
        case createdAt
        /// When they last changed.
        case updatedAt
    }

    /// What readers do not see, listed for editors and admins (`status=`).
    public enum Listing: String, Sendable, CaseIterable {
        /// Drafts.
        case draft
        /// Published with a publication time still to come.
        case scheduled
        /// Past their expiry.
        case expired

        /// The query item that asks for it (for `read(page:pageSize:extraQuery:)`).
        public var query: [URLQueryItem] { [URLQueryItem(name: "status", value: rawValue)] }
    }

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
    /// - Throws: a `RepositoryError` when the fetch fails.
    public func open(_ summary: AnnouncementSummary) async throws -> Announcement {
        if let announcement = Announcement(summary) {
            return announcement
        }
        return try await read(id: summary.id)
    }
}
