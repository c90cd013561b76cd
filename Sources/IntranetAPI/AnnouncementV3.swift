import Foundation

/// Whether an announcement is still being written or is meant for its readers.
public enum AnnouncementStatus: String, Codable, Sendable, CaseIterable {
    /// Seen by editors and admins only.
    case draft
    /// Seen by its readers between `publishAt` and `expiresAt` (each when set).
    case published
}

/// Who an announcement is addressed to beyond its named readers: whole departments of the
/// people directory, and teams (a person and everyone under them in the org chart). A reader
/// is in the audience through the person their account is linked to.
public struct AnnouncementAudience: Codable, Sendable, Equatable, Hashable {
    /// Department names, as the directory writes them (compared ignoring case).
    public var departments: [String]
    /// Ids of people: each with everyone under them in the org chart.
    public var teams: [Int]

    /// Creates an audience.
    public init(departments: [String] = [], teams: [Int] = []) {
        self.departments = departments
        self.teams = teams
    }

    /// Whether it names no department and no team: the announcement is then for editors only.
    public var isEmpty: Bool { departments.isEmpty && teams.isEmpty }

    private enum CodingKeys: String, CodingKey { case departments, teams }

    /// Reads an audience; a missing list is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        departments = try container.decodeIfPresent([String].self, forKey: .departments) ?? []
        teams = try container.decodeIfPresent([Int].self, forKey: .teams) ?? []
    }
}

/// Announcement shapes of version 3.0: version 2.0's plus publishing (status, times, pinning,
/// importance; for editors the audience) and acknowledgements. Lists put pinned announcements
/// first.
public enum AnnouncementV3 {
    /// How an announcement is published, as version 3.0 shows it on every shape.
    public struct Publishing: Sendable, Equatable, Hashable {
        /// Draft or published.
        public var status: AnnouncementStatus
        /// Not shown to readers before this instant; `nil` for at once.
        public var publishAt: Date?
        /// Not shown to readers from this instant on; `nil` for never.
        public var expiresAt: Date?
        /// Whether it is pinned now (first in lists, in the order of pinning).
        public var pinned: Bool
        /// When the pin ends by itself; `nil` for never.
        public var pinnedUntil: Date?
        /// Whether it is marked important.
        public var important: Bool

        /// Creates publishing settings: by default published at once, for ever, not pinned,
        /// not important.
        public init(
            status: AnnouncementStatus = .published, publishAt: Date? = nil, expiresAt: Date? = nil, pinned: Bool = false,
            pinnedUntil: Date? = nil, important: Bool = false
        ) {
            self.status = status
            self.publishAt = publishAt
            self.expiresAt = expiresAt
            self.pinned = pinned
            self.pinnedUntil = pinnedUntil
            self.important = important
        }

        fileprivate init(from container: KeyedDecodingContainer<Key>) throws {
            status = try container.decodeIfPresent(AnnouncementStatus.self, forKey: .status) ?? .published
            publishAt = try container.decodeIfPresent(Date.self, forKey: .publishAt)
            expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
            pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned) ?? false
            pinnedUntil = try container.decodeIfPresent(Date.self, forKey: .pinnedUntil)
            important = try container.decodeIfPresent(Bool.self, forKey: .important) ?? false
        }

        fileprivate func encode(to container: inout KeyedEncodingContainer<Key>) throws {
            try container.encode(status, forKey: .status)
            try container.encode(publishAt, forKey: .publishAt)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(pinned, forKey: .pinned)
            try container.encode(pinnedUntil, forKey: .pinnedUntil)
            try container.encode(important, forKey: .important)
        }
    }

    fileprivate enum Key: String, CodingKey {
        case id, title, body, createdAt, updatedAt, readers, audience, markdown
        case status, publishAt, expiresAt, pinned, pinnedUntil, important
        case acknowledgement, attachments
    }

    /// A list item: `id`, `title`, `createdAt`, `updatedAt` and the publishing properties
    /// (enough for a feed to order and mark it; the body is fetched one by one).
    public struct ListItem: Codable, Sendable, Equatable {
        /// The server-assigned id.
        public var id: Int
        /// The headline.
        public var title: String
        /// When the announcement was created.
        public var createdAt: Date
        /// When the announcement last changed.
        public var updatedAt: Date
        /// Status, times, pin and importance.
        public var publishing: Publishing
        /// Whether readers are asked to acknowledge it (and by when); `nil` when not.
        public var acknowledgement: AcknowledgementRequirement?

        /// Creates a version 3.0 list item.
        public init(
            id: Int, title: String, createdAt: Date, updatedAt: Date, publishing: Publishing,
            acknowledgement: AcknowledgementRequirement? = nil
        ) {
            self.id = id
            self.title = title
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.publishing = publishing
            self.acknowledgement = acknowledgement
        }

        /// Reads a list item.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            id = try container.decode(Int.self, forKey: .id)
            title = try container.decode(String.self, forKey: .title)
            createdAt = try container.decode(Date.self, forKey: .createdAt)
            updatedAt = try container.decode(Date.self, forKey: .updatedAt)
            publishing = try Publishing(from: container)
            acknowledgement = try container.decodeIfPresent(AcknowledgementRequirement.self, forKey: .acknowledgement)
        }

        /// Writes every key, the times and `acknowledgement` as `null` when unset.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try publishing.encode(to: &container)
            try container.encode(acknowledgement, forKey: .acknowledgement)
        }
    }

    /// The detail: version 2.0's (`id`, `title`, `body`, `createdAt`, `updatedAt`) plus the
    /// publishing properties, the acknowledgement and the attachments; editors and admins also get `readers`, `audience` and `markdown`.
    public struct Detail: Codable, Sendable, Equatable {
        /// The server-assigned id.
        public var id: Int
        /// The headline.
        public var title: String
        /// The HTML body, or `nil`.
        public var body: String?
        /// When the announcement was created.
        public var createdAt: Date
        /// When the announcement last changed.
        public var updatedAt: Date
        /// Status, times, pin and importance.
        public var publishing: Publishing
        /// Whether readers are asked to acknowledge it, and when the signed-in reader did;
        /// `nil` when it asks nothing.
        public var acknowledgement: AnnouncementAcknowledgement?
        /// Its attached files, in order.
        public var attachments: [AttachmentDescription]
        /// Who may read it by name (editors' and admins' answers only; `nil` otherwise).
        public var readers: AnnouncementReaders?
        /// The departments and teams it is addressed to (editors' and admins' answers only):
        /// `nil` when it has none or the answer is a reader's.
        public var audience: AnnouncementAudience?
        /// The Markdown the body was made from, when an editor wrote Markdown (editors' and
        /// admins' answers only).
        public var markdown: String?
        /// Whether the answer is an editor's (with `readers`, `audience` and `markdown`, `null`
        /// or not).
        public var isEditorView: Bool

        /// Creates a version 3.0 detail; with `editorView`, `readers`, `audience` and
        /// `markdown` are sent (`null` when unset).
        public init(
            id: Int, title: String, body: String?, createdAt: Date, updatedAt: Date, publishing: Publishing,
            acknowledgement: AnnouncementAcknowledgement? = nil, attachments: [AttachmentDescription] = [],
            editorView: (readers: AnnouncementReaders, audience: AnnouncementAudience?, markdown: String?)? = nil
        ) {
            self.attachments = attachments
            self.id = id
            self.title = title
            self.body = body
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.publishing = publishing
            self.acknowledgement = acknowledgement
            self.readers = editorView?.readers
            self.audience = editorView?.audience
            self.markdown = editorView?.markdown
            self.isEditorView = editorView != nil
        }

        /// Reads a detail; `readers` present (even `null`) marks an editor's answer.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            id = try container.decode(Int.self, forKey: .id)
            title = try container.decode(String.self, forKey: .title)
            body = try container.decodeIfPresent(String.self, forKey: .body)
            createdAt = try container.decode(Date.self, forKey: .createdAt)
            updatedAt = try container.decode(Date.self, forKey: .updatedAt)
            publishing = try Publishing(from: container)
            acknowledgement = try container.decodeIfPresent(AnnouncementAcknowledgement.self, forKey: .acknowledgement)
            attachments = try container.decodeIfPresent([AttachmentDescription].self, forKey: .attachments) ?? []
            isEditorView = container.contains(.readers)
            readers = isEditorView ? try container.decode(AnnouncementReaders.self, forKey: .readers) : nil
            audience = try container.decodeIfPresent(AnnouncementAudience.self, forKey: .audience)
            markdown = try container.decodeIfPresent(String.self, forKey: .markdown)
        }

        /// Writes every key of the shape: `body` and unset times as `null`; for editors,
        /// `readers`, `audience` and `markdown` (`null` when unrestricted, none, or HTML).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try publishing.encode(to: &container)
            try container.encode(acknowledgement, forKey: .acknowledgement)
            try container.encode(attachments, forKey: .attachments)
            if isEditorView {
                try container.encode(readers ?? .everyone, forKey: .readers)
                try container.encode(audience, forKey: .audience)
                try container.encode(markdown, forKey: .markdown)
            }
        }
    }
}
