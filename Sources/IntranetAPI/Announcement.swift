import Foundation

/// Announcement shapes, one namespace per API version.
///
/// Each version's types encode exactly the keys that version promises, so a response can never
/// grow a key an old client did not expect.
public enum AnnouncementV1 {
    /// Both the list item and the detail of version 1.0: exactly `id`, `title`, `body`.
    public struct Detail: Codable, Sendable, Equatable {
        /// The server-assigned id.
        public var id: Int
        /// The headline, 1–255 Unicode code points.
        public var title: String
        /// The HTML body, or `nil` when the announcement has none.
        public var body: String?

        /// Creates a version 1.0 announcement.
        public init(id: Int, title: String, body: String?) {
            self.id = id
            self.title = title
            self.body = body
        }

        private enum CodingKeys: String, CodingKey { case id, title, body }

        /// Encodes `body` as an explicit `null` when absent, as version 1.0 always did.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
        }
    }

    /// A version 1.0 list item: the detail's keys (`id`, `title`, `body`) under its own wire
    /// class (`intranet.AnnouncementSummary`, like every version's list items).
    public struct ListItem: Codable, Sendable, Equatable {
        /// The item's content, encoded exactly as the detail.
        public var content: Detail

        /// Creates a version 1.0 list item.
        public init(id: Int, title: String, body: String?) {
            content = Detail(id: id, title: title, body: body)
        }

        /// Reads the detail's keys.
        public init(from decoder: any Decoder) throws {
            content = try Detail(from: decoder)
        }

        /// Writes the detail's keys.
        public func encode(to encoder: any Encoder) throws {
            try content.encode(to: encoder)
        }
    }
}

/// Announcement shapes of version 2.0.
public enum AnnouncementV2 {
    /// A list item: exactly `id` and `title` (bodies are fetched one by one).
    public struct ListItem: Codable, Sendable, Equatable {
        /// The server-assigned id.
        public var id: Int
        /// The headline.
        public var title: String

        /// Creates a version 2.0 list item.
        public init(id: Int, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// The detail: `id`, `title`, `body`, `createdAt`, `updatedAt`.
    public struct Detail: Codable, Sendable, Equatable {
        /// The server-assigned id.
        public var id: Int
        /// The headline.
        public var title: String
        /// The HTML body, or `nil`.
        public var body: String?
        /// When the announcement was created (server-owned).
        public var createdAt: Date
        /// When the announcement last changed (server-owned).
        public var updatedAt: Date

        /// Creates a version 2.0 detail.
        public init(id: Int, title: String, body: String?, createdAt: Date, updatedAt: Date) {
            self.id = id
            self.title = title
            self.body = body
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }

        private enum CodingKeys: String, CodingKey { case id, title, body, createdAt, updatedAt }

        /// Encodes `body` as an explicit `null` when absent.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
        }
    }
}

/// Who may read an announcement.
public enum AnnouncementReaders: Codable, Sendable, Equatable {
    /// Everyone (JSON `null`).
    case everyone
    /// Only these user ids, plus editors and admins (a JSON array).
    case only([Int])

    /// Reads `null` or an array of user ids.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .everyone : .only(try container.decode([Int].self))
    }

    /// Writes `null` or an array of user ids.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .everyone: try container.encodeNil()
        case .only(let ids): try container.encode(ids)
        }
    }
}

extension AnnouncementV2 {
    /// The detail as editors and admins see it: the 2.0 detail plus `readers`.
    public struct EditorDetail: Codable, Sendable, Equatable {
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
        /// Who may read it.
        public var readers: AnnouncementReaders

        /// Creates an editor's detail.
        public init(id: Int, title: String, body: String?, createdAt: Date, updatedAt: Date, readers: AnnouncementReaders) {
            self.id = id
            self.title = title
            self.body = body
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.readers = readers
        }

        private enum CodingKeys: String, CodingKey { case id, title, body, createdAt, updatedAt, readers }

        /// Reads the detail; a missing `readers` means everyone.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            title = try container.decode(String.self, forKey: .title)
            body = try container.decodeIfPresent(String.self, forKey: .body)
            createdAt = try container.decode(Date.self, forKey: .createdAt)
            updatedAt = try container.decode(Date.self, forKey: .updatedAt)
            readers = container.contains(.readers) ? try container.decode(AnnouncementReaders.self, forKey: .readers) : .everyone
        }

        /// Writes every key, `body` and `readers` as `null` when absent or unrestricted.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(readers, forKey: .readers)
        }
    }
}

/// The body of `POST /announcements` and `PUT /announcements/{id}`, the same in every version.
///
/// Every property but `title` and `body` is sent only when set: a property not sent keeps its
/// value (its default, for a new announcement), so clients that predate it never change it. To
/// clear a time or an audience, send `null` in a `PATCH` (``AnnouncementPatch`` in the SDK).
public struct AnnouncementDraft: Codable, Sendable, Equatable {
    /// The headline; the server trims white space and requires 1–255 code points.
    public var title: String
    /// The HTML body, or `nil` for none (at most 1,000,000 UTF-8 bytes).
    public var body: String?
    /// Who may read it; `nil` leaves it as it is (everyone, for a new announcement).
    public var readers: AnnouncementReaders?
    /// Draft or published; `nil` leaves it (published, for a new announcement).
    public var status: AnnouncementStatus?
    /// When readers first see it; `nil` leaves it (at once, for a new announcement).
    public var publishAt: Date?
    /// When readers stop seeing it; `nil` leaves it (never, for a new announcement).
    public var expiresAt: Date?
    /// Whether it is pinned; `nil` leaves it (not pinned, for a new announcement).
    public var pinned: Bool?
    /// When the pin ends; `nil` leaves it.
    public var pinnedUntil: Date?
    /// Whether it is marked important; `nil` leaves it (not, for a new announcement).
    public var important: Bool?
    /// The departments and teams it is addressed to; `nil` leaves it (none, for a new one).
    public var audience: AnnouncementAudience?
    /// The body written as Markdown (CommonMark with tables) instead of `body`: the server
    /// makes the HTML body from it and keeps it for later edits. Send one or the other.
    public var markdown: String?
    /// Whether readers are asked to acknowledge it; `nil` leaves it (nothing asked, for a new
    /// one). `required: false` stops asking; `newRound: true` asks everyone again.
    public var acknowledgement: AcknowledgementSetting?

    /// Creates a draft.
    public init(
        title: String, body: String? = nil, readers: AnnouncementReaders? = nil, status: AnnouncementStatus? = nil,
        publishAt: Date? = nil, expiresAt: Date? = nil, pinned: Bool? = nil, pinnedUntil: Date? = nil, important: Bool? = nil,
        audience: AnnouncementAudience? = nil, markdown: String? = nil, acknowledgement: AcknowledgementSetting? = nil
    ) {
        self.title = title
        self.body = body
        self.readers = readers
        self.status = status
        self.publishAt = publishAt
        self.expiresAt = expiresAt
        self.pinned = pinned
        self.pinnedUntil = pinnedUntil
        self.important = important
        self.audience = audience
        self.markdown = markdown
        self.acknowledgement = acknowledgement
    }

    private enum CodingKeys: String, CodingKey {
        case title, body, readers, status, publishAt, expiresAt, pinned, pinnedUntil, important, audience, markdown, acknowledgement
    }

    /// Reads a draft; a missing `readers` leaves them unchanged.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        // `decodeIfPresent` would read an explicit `null` (everyone) as "not sent".
        readers = container.contains(.readers) ? try container.decode(AnnouncementReaders.self, forKey: .readers) : nil
        status = try container.decodeIfPresent(AnnouncementStatus.self, forKey: .status)
        publishAt = try container.decodeIfPresent(Date.self, forKey: .publishAt)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned)
        pinnedUntil = try container.decodeIfPresent(Date.self, forKey: .pinnedUntil)
        important = try container.decodeIfPresent(Bool.self, forKey: .important)
        audience = try container.decodeIfPresent(AnnouncementAudience.self, forKey: .audience)
        markdown = try container.decodeIfPresent(String.self, forKey: .markdown)
        acknowledgement = try container.decodeIfPresent(AcknowledgementSetting.self, forKey: .acknowledgement)
    }

    /// Encodes `body` as an explicit `null`, since `PUT` is a full replacement (or `markdown`
    /// instead, when set); `readers` when
    /// set; the publishing properties only when set, left out otherwise in every format
    /// (Spearal's `encodeIfPresent` sends `null`, which would clear them), so that old clients
    /// never touch them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        if let markdown {
            try container.encode(markdown, forKey: .markdown)
        } else {
            try container.encode(body, forKey: .body)
        }
        try container.encodeIfPresent(readers, forKey: .readers)
        if let status { try container.encode(status, forKey: .status) }
        if let publishAt { try container.encode(publishAt, forKey: .publishAt) }
        if let expiresAt { try container.encode(expiresAt, forKey: .expiresAt) }
        if let pinned { try container.encode(pinned, forKey: .pinned) }
        if let pinnedUntil { try container.encode(pinnedUntil, forKey: .pinnedUntil) }
        if let important { try container.encode(important, forKey: .important) }
        if let audience { try container.encode(audience, forKey: .audience) }
        if let acknowledgement { try container.encode(acknowledgement, forKey: .acknowledgement) }
    }
}
