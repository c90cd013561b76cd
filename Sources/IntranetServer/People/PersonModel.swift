import FluentKit
import Foundation
import IntranetAPI

/// The stored form of a person of the staff directory. Never leaves `IntranetServer`: the
/// repository turns it into ``StoredPerson`` values.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class PersonModel: Model, @unchecked Sendable {
    static let schema = "people"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "name")
    var name: String

    /// The address as written.
    @Field(key: "email")
    var email: String

    /// The address trimmed and lower-cased, unique: addresses differing only in case are one.
    @Field(key: "email_key")
    var emailKey: String

    @Field(key: "job_title")
    var jobTitle: String

    @Field(key: "department")
    var department: String

    @OptionalField(key: "phone")
    var phone: String?

    @OptionalField(key: "location")
    var location: String?

    @OptionalField(key: "manager_id")
    var managerID: Int?

    @OptionalField(key: "user_id")
    var userID: Int?

    /// Name, e-mail, job title and department folded (lower case, no accents) for `q`.
    @Field(key: "search_key")
    var searchKey: String

    /// Incremented on every write; the `ETag` is derived from it.
    @Field(key: "revision")
    var revision: Int

    @Field(key: "created_at")
    var createdAt: Date

    @Field(key: "updated_at")
    var updatedAt: Date

    init() {}

    init(_ content: PersonContent, createdAt: Date) {
        self.revision = 1
        self.createdAt = createdAt
        self.updatedAt = createdAt
        apply(content)
    }

    /// Sets every stored field from `content`.
    func apply(_ content: PersonContent) {
        name = content.name
        email = content.email
        emailKey = PersonRules.emailKey(content.email)
        jobTitle = content.jobTitle
        department = content.department
        phone = content.phone
        location = content.location
        managerID = content.managerID
        userID = content.userID
        searchKey = Self.searchKey(of: content)
    }

    /// What the directory's searches look in: name (first, for ranking), e-mail, job title,
    /// department and phone, one per line, folded.
    static func searchKey(of content: PersonContent) -> String {
        PersonRules.searchKey([content.name, content.email, content.jobTitle, content.department, content.phone ?? ""].joined(separator: "\n"))
    }
}
