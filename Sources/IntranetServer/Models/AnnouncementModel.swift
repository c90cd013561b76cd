import FluentKit
import Foundation

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

    /// Whether only the users in `announcement_readers` (and editors and admins) may read it.
    @Field(key: "is_restricted")
    var isRestricted: Bool

    init() {}

    init(title: String, body: String?, createdAt: Date) {
        self.title = title
        self.body = body
        self.revision = 1
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.isRestricted = false
    }
}
