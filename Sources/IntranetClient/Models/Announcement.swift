import Foundation
import IntranetAPI

/// An announcement as the app shows it, the same type under every API version.
///
/// Version 1.0 sends no dates, so ``createdAt`` and ``updatedAt`` are `nil` there. ``readers``
/// is set only when the server showed them: a 2.0 or 3.0 detail read by an editor or an admin.
/// ``publishing`` (status, times, pin, importance) and ``attachments`` come with version 3.0,
/// ``audience`` with an editor's 3.0 detail.
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
    /// Status, times, pin and importance (version 3.0 and later; `nil` before).
    public var publishing: AnnouncementV3.Publishing?
    /// The departments and teams it is addressed to, in an editor's 3.0 detail; `nil` when it
    /// has none or the server did not say.
    public var audience: AnnouncementAudience?
    /// The Markdown the body was made from, in an editor's 3.0 detail (`nil` for HTML).
    public var markdown: String?
    /// Whether readers are asked to acknowledge it, by when, and when the signed-in user did
    /// (3.0; `nil` when it asks nothing).
    public var acknowledgement: AnnouncementAcknowledgement?
    /// The files attached to it, in the order the editors gave them (3.0 details; empty under
    /// 1.0 and 2.0, and in lists). ``AttachmentsRepository`` uploads, changes and downloads them.
    public var attachments: [AttachmentDescription]

    /// Creates an announcement.
    public init(
        id: Int, title: String, body: String?, createdAt: Date? = nil, updatedAt: Date? = nil,
        readers: AnnouncementReaders? = nil, publishing: AnnouncementV3.Publishing? = nil, audience: AnnouncementAudience? = nil,
        acknowledgement: AnnouncementAcknowledgement? = nil, attachments: [AttachmentDescription] = []
    ) {
        self.acknowledgement = acknowledgement
        self.attachments = attachments
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.readers = readers
        self.publishing = publishing
        self.audience = audience
    }

    /// Whether it is pinned (first in lists); `false` under versions before 3.0.
    public var isPinned: Bool { publishing?.pinned ?? false }
    /// Whether it is marked important; `false` under versions before 3.0.
    public var isImportant: Bool { publishing?.important ?? false }

    /// The announcement built from a list item that carried its body (version 1.0).
    ///
    /// - Parameter summary: the list item.
    /// - Returns: `nil` when the list item carried no body, so it must be fetched.
    public init?(_ summary: AnnouncementSummary) {
        guard summary.body.isIncluded else { return nil }
        self.init(id: summary.id, title: summary.title, body: summary.body.html)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, body, createdAt, updatedAt, readers, audience, markdown
        case status, publishAt, expiresAt, pinned, pinnedUntil, important, acknowledgement, attachments
    }

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
        audience = try container.decodeIfPresent(AnnouncementAudience.self, forKey: .audience)
        markdown = try container.decodeIfPresent(String.self, forKey: .markdown)
        publishing = try Self.publishing(in: container)
        acknowledgement = try container.decodeIfPresent(AnnouncementAcknowledgement.self, forKey: .acknowledgement)
        attachments = try container.decodeIfPresent([AttachmentDescription].self, forKey: .attachments) ?? []
    }

    /// The publishing properties of a 3.0 object (`status` present), else `nil`.
    static func publishing<Key: CodingKey>(
        in container: KeyedDecodingContainer<Key>, keys: (status: Key, publishAt: Key, expiresAt: Key, pinned: Key, pinnedUntil: Key, important: Key)
    ) throws -> AnnouncementV3.Publishing? {
        guard container.contains(keys.status) else { return nil }
        return AnnouncementV3.Publishing(
            status: try container.decode(AnnouncementStatus.self, forKey: keys.status),
            publishAt: try container.decodeIfPresent(Date.self, forKey: keys.publishAt),
            expiresAt: try container.decodeIfPresent(Date.self, forKey: keys.expiresAt),
            pinned: try container.decodeIfPresent(Bool.self, forKey: keys.pinned) ?? false,
            pinnedUntil: try container.decodeIfPresent(Date.self, forKey: keys.pinnedUntil),
            important: try container.decodeIfPresent(Bool.self, forKey: keys.important) ?? false)
    }

    private static func publishing(in container: KeyedDecodingContainer<CodingKeys>) throws -> AnnouncementV3.Publishing? {
        try publishing(in: container, keys: (.status, .publishAt, .expiresAt, .pinned, .pinnedUntil, .important))
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
        if let audience { try container.encode(audience, forKey: .audience) }
        if let markdown { try container.encode(markdown, forKey: .markdown) }
        if let publishing {
            try container.encode(publishing.status, forKey: .status)
            try container.encode(publishing.publishAt, forKey: .publishAt)
            try container.encode(publishing.expiresAt, forKey: .expiresAt)
            try container.encode(publishing.pinned, forKey: .pinned)
            try container.encode(publishing.pinnedUntil, forKey: .pinnedUntil)
            try container.encode(publishing.important, forKey: .important)
            try container.encode(acknowledgement, forKey: .acknowledgement)
            try container.encode(attachments, forKey: .attachments)
        }
    }
}
