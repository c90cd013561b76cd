import FluentKit

/// A single row counting every committed write to announcements.
///
/// Each write transaction increments it, so a server instance can tell in one primary-key read
/// whether its cached responses are still current, even when another instance made the write.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class RevisionModel: Model, @unchecked Sendable {
    static let schema = "change_revisions"
    static let announcementsKey = 1

    @ID(custom: "id", generatedBy: .user)
    var id: Int?

    @Field(key: "value")
    var value: Int64

    init() {}

    init(id: Int, value: Int64) {
        self.id = id
        self.value = value
    }
}
