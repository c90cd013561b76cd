import IntranetAPI
import RESTRepository
import Spearal

/// A partial change to a person, sent as a JSON Merge Patch (or a partial Spearal bean).
///
/// Name, e-mail, job title and department can be left alone or set; phone, location, manager
/// and account can also be cleared:
///
/// ```swift
/// PersonPatch(jobTitle: "Head of Platform")     // {"jobTitle":"Head of Platform"}
/// PersonPatch(managerId: .value(3))             // {"managerId":3}
/// PersonPatch(managerId: .null)                 // {"managerId":null}: to the top
/// ```
public struct PersonPatch: Encodable, Sendable, Equatable {
    /// The new name, or `RequiredPatchField.absent` to keep it.
    public var name: RequiredPatchField<String>
    /// The new e-mail address, or `RequiredPatchField.absent` to keep it.
    public var email: RequiredPatchField<String>
    /// The new job title, or `RequiredPatchField.absent` to keep it.
    public var jobTitle: RequiredPatchField<String>
    /// The new department, or `RequiredPatchField.absent` to keep it.
    public var department: RequiredPatchField<String>
    /// The new phone number, `PatchField.null` to clear it, or `PatchField.absent`.
    public var phone: PatchField<String>
    /// The new location, `PatchField.null` to clear it, or `PatchField.absent`.
    public var location: PatchField<String>
    /// The new manager's id, `PatchField.null` for none (the top), or `PatchField.absent`.
    public var managerId: PatchField<Int>
    /// The account's id, `PatchField.null` for none, or `PatchField.absent`.
    public var userId: PatchField<Int>

    /// Creates a patch; every field is left alone unless given.
    ///
    /// - Parameters:
    ///   - name: the new name, or `nil` to keep it.
    ///   - email: the new address, or `nil` to keep it.
    ///   - jobTitle: the new job title, or `nil` to keep it.
    ///   - department: the new department, or `nil` to keep it.
    ///   - phone: what to do with the phone number.
    ///   - location: what to do with the location.
    ///   - managerId: what to do with the manager.
    ///   - userId: what to do with the account.
    public init(
        name: String? = nil, email: String? = nil, jobTitle: String? = nil, department: String? = nil,
        phone: PatchField<String> = .absent, location: PatchField<String> = .absent,
        managerId: PatchField<Int> = .absent, userId: PatchField<Int> = .absent
    ) {
        self.name = name.map(RequiredPatchField.value) ?? .absent
        self.email = email.map(RequiredPatchField.value) ?? .absent
        self.jobTitle = jobTitle.map(RequiredPatchField.value) ?? .absent
        self.department = department.map(RequiredPatchField.value) ?? .absent
        self.phone = phone
        self.location = location
        self.managerId = managerId
        self.userId = userId
    }

    private enum CodingKeys: String, CodingKey { case name, email, jobTitle, department, phone, location, managerId, userId }

    /// Writes only the fields the patch mentions.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(email, forKey: .email)
        try container.encode(jobTitle, forKey: .jobTitle)
        try container.encode(department, forKey: .department)
        try container.encode(phone, forKey: .phone)
        try container.encode(location, forKey: .location)
        try container.encode(managerId, forKey: .managerId)
        try container.encode(userId, forKey: .userId)
    }
}

extension PersonPatch: SpearalClassNamed {
    /// `intranet.Person`: a patch is a partial person.
    public static var spearalClassName: String { WireClass.person.rawValue }
}
