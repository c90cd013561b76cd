import FluentKit
import Foundation
import IntranetAPI

/// The stored form of an announcement. Never leaves `IntranetServer`: the repository turns it
/// into ``StoredAnnouncement`` values.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class AnnouncementModel: Model, @unchecked Sendable {
    static let schema = "announcements"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "title")
    var title: String

    @OptionalField(key: "body")
    var body: String?

    /// Incremented on every write; the `ETag` is derived from it.
    @Field(key: "revision")
    var revision: Int

    @Field(key: "created_at")
    var createdAt: Date

    @Field(key: "updated_at")
    var updatedAt: Date

    /// Whether not everyone may read it: it names readers (`announcement_readers`) or has an
    /// audience (`announcement_audiences`), or both; editors and admins read it anyway.
    @Field(key: "is_restricted")
    var isRestricted: Bool

    /// Whether it names readers (an empty list names none: editors only).
    @Field(key: "has_readers")
    var hasReaders: Bool

    /// `draft` or `published` (``AnnouncementStatus``).
    @Field(key: "status")
    var status: String

    @OptionalField(key: "publish_at")
    var publishAt: Date?

    @OptionalField(key: "expires_at")
    var expiresAt: Date?

    @Field(key: "pinned")
    var pinned: Bool

    /// When it was last pinned: pinned announcements come first in this order.
    @OptionalField(key: "pinned_at")
    var pinnedAt: Date?

    @OptionalField(key: "pinned_until")
    var pinnedUntil: Date?

    @Field(key: "important")
    var important: Bool

    /// The Markdown the body was made from, when the editor wrote Markdown.
    @OptionalField(key: "body_markdown")
    var bodyMarkdown: String?

    /// Whether readers are asked to acknowledge it.
    @Field(key: "ack_required")
    var ackRequired: Bool

    @OptionalField(key: "ack_due_at")
    var ackDueAt: Date?

    /// The round asked for: 0 until it first asks, then one more for each new round.
    @Field(key: "ack_round")
    var ackRound: Int

    /// Acknowledgements of the current round by accounts deleted since.
    @Field(key: "ack_former")
    var ackFormer: Int

    init() {}

    init(title: String, body: String?, createdAt: Date) {
        self.title = title
        self.body = body
        self.revision = 1
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.isRestricted = false
        self.hasReaders = false
        self.status = AnnouncementStatus.published.rawValue
        self.pinned = false
        self.important = false
        self.ackRequired = false
        self.ackRound = 0
        self.ackFormer = 0
    }
}
