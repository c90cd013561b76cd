import FluentKit
import Foundation

/// One account's acknowledgement of one round of an announcement. Personal data the company
/// asked for: kept until the announcement is deleted; an account's deletion removes its rows
/// (counted first in the announcement's `ack_former`).
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class AcknowledgementModel: Model, @unchecked Sendable {
    static let schema = "announcement_acknowledgements"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "announcement_id")
    var announcementID: Int

    @Field(key: "user_id")
    var userID: Int

    @Field(key: "round")
    var round: Int

    @Field(key: "acknowledged_at")
    var acknowledgedAt: Date

    init() {}
}
