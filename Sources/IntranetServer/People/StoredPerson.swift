import Foundation
import IntranetAPI

/// A person as the repository returns it.
struct StoredPerson: Sendable, Equatable {
    var id: Int
    var name: String
    var email: String
    var jobTitle: String
    var department: String
    var phone: String?
    var location: String?
    var managerID: Int?
    var userID: Int?
    var revision: Int
    var createdAt: Date
    var updatedAt: Date

    /// The editable fields, as a write would set them again.
    var content: PersonContent {
        PersonContent(
            name: name, email: email, jobTitle: jobTitle, department: department, phone: phone, location: location,
            managerID: managerID, userID: userID)
    }

    /// The one-line summary `?expand=` embeds.
    var summary: PersonSummary {
        PersonSummary(id: id, name: name, jobTitle: jobTitle, department: department)
    }
}

/// What a write sets: every editable field, validated and trimmed.
struct PersonContent: Sendable, Equatable {
    var name: String
    var email: String
    var jobTitle: String
    var department: String
    var phone: String?
    var location: String?
    var managerID: Int?
    var userID: Int?
}

/// A page of `GET /people`.
struct PersonListRequest: Sendable, Equatable {
    enum SortKey: String, Sendable, CaseIterable {
        case name, id, email, jobTitle, department

        /// The column of `people` this sort orders by (then by id).
        var column: String {
            switch self {
            case .id: "id"
            case .name: "name"
            case .email: "email_key"
            case .jobTitle: "job_title"
            case .department: "department"
            }
        }
    }

    var sort = SortKey.name
    var isDescending = false
    var offset = 0
    var limit = 10
    /// Only people whose name, e-mail, job title or department contains this text, ignoring
    /// case and accents; `nil` for everyone.
    var search: String?
}

/// Where the reports of a deleted person go (`?reassignTo=`).
enum Reassignment: Sendable, Equatable {
    /// To this person.
    case person(Int)
    /// To no one: they move to the top of the organisation.
    case none
}
