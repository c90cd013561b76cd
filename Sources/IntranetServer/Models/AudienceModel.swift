import FluentKit

/// One entry of an announcement's audience: a department (by name) or a team (by the id of the
/// person at its head). A team whose head leaves the directory reaches nobody; the entry stays,
/// so the editor sees what was asked.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class AudienceModel: Model, @unchecked Sendable {
    static let schema = "announcement_audiences"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "announcement_id")
    var announcementID: Int

    @OptionalField(key: "department")
    var department: String?

    @OptionalField(key: "team_id")
    var teamID: Int?

    init() {}

    init(announcementID: Int, department: String? = nil, teamID: Int? = nil) {
        self.announcementID = announcementID
        self.department = department
        self.teamID = teamID
    }
}
