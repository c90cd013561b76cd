/// Storage of announcements. ``FluentAnnouncementRepository`` is the only place that queries them.
///
/// Every method that returns normally has committed its change; a thrown ``APIError`` means
/// nothing changed.
protocol AnnouncementRepository: Sendable {
    /// One page of the announcements `visibility` allows, and how many it allows in all.
    func list(_ request: ListRequest, visibility: Visibility) async throws -> (items: [StoredAnnouncement], total: Int)

    /// The announcement with this id, or `nil` when there is none or `visibility` hides it.
    func find(id: Int, visibility: Visibility) async throws -> StoredAnnouncement?

    /// Stores a new announcement and returns it with its id and timestamps.
    ///
    /// - Throws: ``APIError`` 422 when `readers` names a user that does not exist.
    func create(_ content: AnnouncementContent) async throws -> StoredAnnouncement

    /// Changes an existing announcement, atomically with the precondition check.
    ///
    /// - Parameters:
    ///   - id: the announcement to change.
    ///   - precondition: what `If-Match` requires of the current revision.
    ///   - change: builds the new content from the current announcement (a `PUT` keeps only its
    ///     readers, a `PATCH` merges into it); it may throw a validation error.
    /// - Throws: ``APIError`` 404 when absent, 412 when the precondition fails, 422 for unknown
    ///   readers.
    func update(
        id: Int,
        precondition: WritePrecondition,
        change: @escaping @Sendable (StoredAnnouncement) throws -> AnnouncementContent
    ) async throws -> StoredAnnouncement

    /// Deletes an announcement, atomically with the precondition check.
    ///
    /// - Throws: ``APIError`` 404 when absent, 412 when the precondition fails.
    func delete(id: Int, precondition: WritePrecondition) async throws

    /// One page of the live announcements `visibility` allows that match `query`, best first
    /// (``AnnouncementSearchIndex``), and how many match in all. What `visibility` hides is
    /// filtered before ranking, paging and counting.
    func search(_ query: SearchQuery, offset: Int, limit: Int, visibility: Visibility) async throws -> (items: [FoundAnnouncement], total: Int)

    /// Checks the database answers (for `/health`).
    func ping() async throws
}
