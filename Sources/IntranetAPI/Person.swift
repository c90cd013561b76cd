import Foundation

/// A person of the staff directory as JSON carries it (docs/api.md, "People directory and org chart"): links to other people are
/// ids (`managerId`, `reportIds`); `?expand=manager,reports` adds one level of summaries.
///
/// The shape is the same under API versions 1.0 and 2.0. Spearal carries people differently:
/// `manager` and `reports` are the person objects themselves (`intranet.Person` beans), so one
/// answer is one graph; the SDK reads both into the same object graph.
public struct Person: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The server-assigned id.
    public var id: Int
    /// The full name, 1–255 code points, trimmed.
    public var name: String
    /// The e-mail address, unique regardless of letter case.
    public var email: String
    /// What the person does.
    public var jobTitle: String
    /// Where in the organisation the person works.
    public var department: String
    /// A phone number, if the directory has one.
    public var phone: String?
    /// Where the person sits, if the directory knows.
    public var location: String?
    /// The id of the person's manager; `nil` at the top of the organisation.
    public var managerId: Int?
    /// The ids of the people whose manager this person is, in name order.
    public var reportIds: [Int]
    /// The id of the account this person signs in with, if any.
    public var userId: Int?
    /// The manager's summary, only with `?expand=manager`.
    public var manager: PersonSummary?
    /// The reports' summaries, only with `?expand=reports`.
    public var reports: [PersonSummary]?

    /// Creates a person value.
    public init(
        id: Int, name: String, email: String, jobTitle: String, department: String, phone: String? = nil, location: String? = nil,
        managerId: Int? = nil, reportIds: [Int] = [], userId: Int? = nil, manager: PersonSummary? = nil, reports: [PersonSummary]? = nil
    ) {
        self.id = id
        self.name = name
        self.email = email
        self.jobTitle = jobTitle
        self.department = department
        self.phone = phone
        self.location = location
        self.managerId = managerId
        self.reportIds = reportIds
        self.userId = userId
        self.manager = manager
        self.reports = reports
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, email, jobTitle, department, phone, location, managerId, reportIds, userId, manager, reports
    }

    /// Reads a person from JSON (links by id, expansions when asked for) or from a Spearal
    /// bean, whose `manager` and `reports` are persons: their ids become `managerId` and
    /// `reportIds`, and their own properties the summaries.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        email = try container.decode(String.self, forKey: .email)
        jobTitle = try container.decode(String.self, forKey: .jobTitle)
        department = try container.decode(String.self, forKey: .department)
        phone = try container.decodeIfPresent(String.self, forKey: .phone)
        location = try container.decodeIfPresent(String.self, forKey: .location)
        userId = try container.decodeIfPresent(Int.self, forKey: .userId)
        manager = try container.decodeIfPresent(PersonSummary.self, forKey: .manager)
        reports = try container.decodeIfPresent([PersonSummary].self, forKey: .reports)
        managerId = try container.decodeIfPresent(Int.self, forKey: .managerId) ?? manager?.id
        reportIds = try container.decodeIfPresent([Int].self, forKey: .reportIds) ?? reports?.map(\.id) ?? []
    }

    /// Encodes every property, optional ones as `null`, except the expansions, which appear
    /// only when asked for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(department, forKey: .department)
        try container.encode(email, forKey: .email)
        try container.encode(id, forKey: .id)
        try container.encode(jobTitle, forKey: .jobTitle)
        try container.encode(location, forKey: .location)
        try container.encodeIfPresent(manager, forKey: .manager)
        try container.encode(managerId, forKey: .managerId)
        try container.encode(name, forKey: .name)
        try container.encode(phone, forKey: .phone)
        try container.encode(reportIds, forKey: .reportIds)
        try container.encodeIfPresent(reports, forKey: .reports)
        try container.encode(userId, forKey: .userId)
    }
}

/// Who someone is, in one line: what `?expand=` embeds.
public struct PersonSummary: Codable, Sendable, Equatable, Hashable {
    /// The person's id.
    public var id: Int
    /// The full name.
    public var name: String
    /// What the person does.
    public var jobTitle: String
    /// Where in the organisation the person works.
    public var department: String

    /// Creates a summary.
    public init(id: Int, name: String, jobTitle: String, department: String) {
        self.id = id
        self.name = name
        self.jobTitle = jobTitle
        self.department = department
    }
}

/// One person of `GET /org` in JSON: the person and, nested, everyone who reports to them.
public struct OrgChartNode: Codable, Sendable, Equatable {
    /// The person (without expansions).
    public var person: Person
    /// The people who report to this person, each with their own reports, in name order.
    public var reports: [OrgChartNode]

    /// Creates a node.
    public init(person: Person, reports: [OrgChartNode]) {
        self.person = person
        self.reports = reports
    }

    private enum CodingKeys: String, CodingKey {
        case reports
    }

    /// Reads the person's properties and the nested `reports`.
    public init(from decoder: any Decoder) throws {
        var person = try Person(from: decoder)
        person.reports = nil
        self.person = person
        reports = try decoder.container(keyedBy: CodingKeys.self).decode([OrgChartNode].self, forKey: .reports)
    }

    /// Writes the person's properties with `reports` holding the nested nodes.
    public func encode(to encoder: any Encoder) throws {
        var person = self.person
        person.manager = nil
        person.reports = nil
        try person.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reports, forKey: .reports)
    }
}

/// A person as an editor sends it: `POST /people` and `PUT /people/{id}` take every field
/// (`phone`, `location`, `managerId` and `userId` may be `null` or absent); `PATCH` takes any
/// subset as a JSON Merge Patch.
public struct PersonDraft: Codable, Sendable, Equatable {
    /// The full name.
    public var name: String
    /// The e-mail address.
    public var email: String
    /// What the person does.
    public var jobTitle: String
    /// Where in the organisation the person works.
    public var department: String
    /// A phone number.
    public var phone: String?
    /// Where the person sits.
    public var location: String?
    /// The manager's id; `nil` for the top of the organisation.
    public var managerId: Int?
    /// The account the person signs in with.
    public var userId: Int?

    /// Creates a draft.
    public init(
        name: String, email: String, jobTitle: String, department: String, phone: String? = nil, location: String? = nil,
        managerId: Int? = nil, userId: Int? = nil
    ) {
        self.name = name
        self.email = email
        self.jobTitle = jobTitle
        self.department = department
        self.phone = phone
        self.location = location
        self.managerId = managerId
        self.userId = userId
    }

    private enum CodingKeys: String, CodingKey {
        case name, email, jobTitle, department, phone, location, managerId, userId
    }

    /// Writes every field, `null` for the absent optional ones (a `PUT` replaces them all).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(department, forKey: .department)
        try container.encode(email, forKey: .email)
        try container.encode(jobTitle, forKey: .jobTitle)
        try container.encode(location, forKey: .location)
        try container.encode(managerId, forKey: .managerId)
        try container.encode(name, forKey: .name)
        try container.encode(phone, forKey: .phone)
        try container.encode(userId, forKey: .userId)
    }
}
