import FluentKit

/// One user allowed to read one restricted announcement.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class ReaderGrantModel: Model, @unchecked Sendable {
    static let schema = "announcement_readers"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "announcement_id")
    var announcementID: Int

    @Field(key: "user_id")
    var userID: Int

    init() {}

    init(announcementID: Int, userID: Int) {
        self.announcementID = announcementID
        self.userID = userID
    }
}
