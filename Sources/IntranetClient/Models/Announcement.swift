import Foundation
import IntranetAPI

/// An announcement as the app shows it, the same type under every API version.
///
/// Version 1.0 sends no dates, so ``createdAt`` and ``updatedAt`` are `nil` there. ``readers``
/// is set only when the server showed them: a 2.0 detail read by an editor or an admin.
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
    /// Who may read it, when the server said (2.0 details for editors and admins); `nil` when
    /// it did not, which is not the same as `AnnouncementReaders.everyone`.
    public var readers: AnnouncementReaders?

    /// Creates an announcement.
    public init(
        id: Int, title: String, body: String?, createdAt: Date? = nil, updatedAt: Date? = nil,
        readers: AnnouncementReaders? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.readers = readers
    }

    /// The announcement built from a list item that carried its body (version 1.0).
    ///
    /// - Parameter summary: the list item.
    /// - Returns: `nil` when the list item carried no body, so it must be fetched.
    public init?(_ summary: AnnouncementSummary) {
        guard summary.body.isIncluded else { return nil }
        self.init(id: summary.id, title: summary.title, body: summary.body.html)
    }

    private enum CodingKeys: String, CodingKey { case id, title, body, createdAt, updatedAt, readers }

    /// Decodes any version's detail; `"readers": null` is `AnnouncementReaders.everyone`,
    /// a missing `readers` key is `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
        // `decodeIfPresent` would turn an explicit `null` (everyone) into "not sent".
        readers = container.contains(.readers) ? try container.decode(AnnouncementReaders.self, forKey: .readers) : nil
    }

    /// Encodes the fields that are known; `readers` only when the server showed them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(readers, forKey: .readers)
    }
}
