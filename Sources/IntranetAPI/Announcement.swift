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

    /// A version 1.0 list item has the same shape as the detail.
    public typealias ListItem = Detail
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

/// The body of `POST /announcements` and `PUT /announcements/{id}`, the same in every version.
public struct AnnouncementDraft: Codable, Sendable, Equatable {
    /// The headline; the server trims white space and requires 1–255 code points.
    public var title: String
    /// The HTML body, or `nil` for none (at most 1,000,000 UTF-8 bytes).
    public var body: String?

    /// Creates a draft.
    public init(title: String, body: String? = nil) {
        self.title = title
        self.body = body
    }

    private enum CodingKeys: String, CodingKey { case title, body }

    /// Encodes `body` as an explicit `null`, since `PUT` is a full replacement.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
    }
}
