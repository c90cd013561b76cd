/// Storage of announcements. ``FluentAnnouncementRepository`` is the only place that queries them.
///
/// Every method that returns normally has committed its change; a thrown ``APIError`` with status
/// 404 or 412 means nothing changed.
protocol AnnouncementRepository: Sendable {
    /// One page of announcements and the total count across all pages.
    func list(_ request: ListRequest) async throws -> (items: [StoredAnnouncement], total: Int)

    /// The announcement with this id, or `nil`.
    func find(id: Int) async throws -> StoredAnnouncement?

    /// Stores a new announcement and returns it with its id and timestamps.
    func create(_ content: AnnouncementContent) async throws -> StoredAnnouncement

    /// Changes an existing announcement, atomically with the precondition check.
    ///
    /// - Parameters:
    ///   - id: the announcement to change.
    ///   - precondition: what `If-Match` requires of the current revision.
    ///   - change: builds the new content from the current announcement (a `PUT` ignores it, a
    ///     `PATCH` merges into it); it may throw a validation error, which changes nothing.
    /// - Throws: ``APIError`` 404 when absent, 412 when the precondition fails.
    func update(
        id: Int,
        precondition: WritePrecondition,
        change: @escaping @Sendable (StoredAnnouncement) throws -> AnnouncementContent
    ) async throws -> StoredAnnouncement

    /// Deletes an announcement, atomically with the precondition check.
    ///
    /// - Throws: ``APIError`` 404 when absent, 412 when the precondition fails.
    func delete(id: Int, precondition: WritePrecondition) async throws

    /// A number that grows with every committed write, by any server instance.
    func currentRevision() async throws -> Int64

    /// Checks the database answers (for `/health`).
    func ping() async throws
}
