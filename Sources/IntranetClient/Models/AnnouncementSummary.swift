import Foundation
import IntranetAPI
/// An announcement as a list carries it: under 1.0 with its body, under 2.0 only id and title,
/// under 3.0 id, title, dates and how it is published (pinned ones come first).
public struct AnnouncementSummary: Decodable, Sendable, Equatable, Identifiable {
    /// What a list said about the body: three different things, so "no body" and "not sent"
    /// cannot be mistaken for each other.
    public enum Body: Sendable, Equatable {
        /// The list did not carry bodies (2.0): open the announcement to read it.
        case notIncluded
        /// The list carried the body, and the announcement has none (`"body": null`).
        case empty
        /// The list carried the body: this HTML.
        case html(String)

        /// The HTML when the list carried some, else `nil`.
        public var html: String? {
            if case .html(let html) = self { return html }
            return nil
        }

        /// Whether the list carried the body (even an empty one), so opening needs no request.
        public var isIncluded: Bool {
            self != .notIncluded
        }

        /// Reads a body key: absent is ``notIncluded``, `null` ``empty``, a string ``html(_:)``.
        ///
        /// - Parameters:
        ///   - container: the object holding the key.
        ///   - key: the body's key.
        public init<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws {
            if !container.contains(key) {
                self = .notIncluded
            } else if let html = try container.decodeIfPresent(String.self, forKey: key) {
                self = .html(html)
            } else {
                self = .empty
            }
        }
    }

    /// The server-assigned id.
    public var id: Int
    /// The headline.
    public var title: String
    /// The body, as far as the list carried it.
    public var body: Body
    /// When it was created (3.0 lists; `nil` before).
    public var createdAt: Date?
    /// Status, times, pin and importance (3.0 lists; `nil` before).
    public var publishing: AnnouncementV3.Publishing?
    /// Whether readers are asked to acknowledge it, and by when (3.0 lists; `nil` when it asks
    /// nothing). Whether *you* did is on the detail and in ``AcknowledgementsRepository/pending(page:pageSize:)``.
    public var acknowledgement: AcknowledgementRequirement?

    /// Whether it is pinned (the list puts it first); `false` under versions before 3.0.
    public var isPinned: Bool { publishing?.pinned ?? false }
    /// Whether it is marked important: a screen shows it distinctly.
    public var isImportant: Bool { publishing?.important ?? false }

    /// Creates a list item.
    ///
    /// - Parameters:
    ///   - id: the id.
    ///   - title: the headline.
    ///   - body: what the list carried of the body (nothing by default, as under 2.0).
    ///   - createdAt: when it was created (3.0).
    ///   - publishing: how it is published (3.0).
    ///   - acknowledgement: whether readers are asked to acknowledge it (3.0).
    public init(
        id: Int, title: String, body: Body = .notIncluded, createdAt: Date? = nil, publishing: AnnouncementV3.Publishing? = nil,
        acknowledgement: AcknowledgementRequirement? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.publishing = publishing
        self.acknowledgement = acknowledgement
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, body, createdAt, status, publishAt, expiresAt, pinned, pinnedUntil, important, acknowledgement
    }

    /// Decodes a list item of any version: a `body` key (even `null`) means the list carried it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        body = try Body(from: container, forKey: .body)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        publishing = try Announcement.publishing(in: container, keys: (.status, .publishAt, .expiresAt, .pinned, .pinnedUntil, .important))
        acknowledgement = try container.decodeIfPresent(AcknowledgementRequirement.self, forKey: .acknowledgement)
    }
}
