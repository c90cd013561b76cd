import Foundation

/// An announcement as the app shows it, the same type under every API version.
///
/// Version 1.0 sends no dates, so ``createdAt`` and ``updatedAt`` are `nil` there.
public struct Announcement: Codable, Sendable, Equatable, Identifiable {
    /// The server-assigned id.
    public var id: Int
    /// The headline.
    public var title: String
    /// The HTML body, or `nil` when the announcement has none.
    public var body: String?
    /// When it was created (version 2.0 and later).
    public var createdAt: Date?
    /// When it last changed (version 2.0 and later).
    public var updatedAt: Date?

    /// Creates an announcement.
    public init(id: Int, title: String, body: String?, createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The announcement built from a list item that carried its body (version 1.0).
    ///
    /// - Parameter summary: the list item.
    /// - Returns: `nil` when the list item carried no body, so it must be fetched.
    public init?(_ summary: AnnouncementSummary) {
        guard summary.isBodyIncluded else { return nil }
        self.init(id: summary.id, title: summary.title, body: summary.body)
    }
}
