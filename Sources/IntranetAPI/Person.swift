import Foundation

/// A person of the staff directory as JSON carries it (API.md §7): links to other people are
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

/// The validation rules for people's fields, shared by server and client.
public enum PersonRules {
    /// Most code points a name, job title, department or location may have after trimming.
    public static let maxTextCodePoints = 255
    /// Most code points of an e-mail address (RFC 5321's path limit).
    public static let maxEmailCodePoints = 254
    /// Most code points of a phone number.
    public static let maxPhoneCodePoints = 40

    /// The trimmed value the server stores.
    public static func normalized(_ text: String) -> String {
        text.trimmingWhitespace()
    }

    /// The problem with a required text field (name, job title, department), or `nil`.
    public static func textProblem(_ text: String) -> String? {
        let trimmed = normalized(text)
        if trimmed.isEmpty { return "must not be empty or only white space" }
        if trimmed.unicodeScalars.count > maxTextCodePoints { return "must be at most \(maxTextCodePoints) characters" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not contain control characters" }
        return nil
    }

    /// The problem with an e-mail address, or `nil`: one `@`, a local part of at most 64
    /// bytes without spaces, and a domain of dot-separated labels (letters, digits, hyphens,
    /// or any non-ASCII letter) with at least one dot.
    public static func emailProblem(_ email: String) -> String? {
        let trimmed = normalized(email)
        if trimmed.unicodeScalars.count > maxEmailCodePoints { return "must be at most \(maxEmailCodePoints) characters" }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, local.utf8.count <= 64,
              !local.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control || "<>()[]\\,;:\"".unicodeScalars.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { return "must be an e-mail address like name@example.com" }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { $0 == "-" || ($0.isASCII ? $0.properties.isAlphabetic || ("0"..."9").contains($0) : $0.properties.isAlphabetic || $0.properties.numericType != nil) }
        }) else { return "must be an e-mail address like name@example.com" }
        return nil
    }

    /// The problem with an optional short text (phone, location), or `nil`.
    public static func optionalTextProblem(_ text: String, maxCodePoints: Int) -> String? {
        let trimmed = normalized(text)
        if trimmed.unicodeScalars.count > maxCodePoints { return "must be at most \(maxCodePoints) characters" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not contain control characters" }
        return nil
    }

    /// The problem with a phone number, or `nil`: digits with spaces and `+ - ( ) . /`, and
    /// an extension after `x`.
    public static func phoneProblem(_ phone: String) -> String? {
        let allowed = Set("0123456789 +-()./x")
        guard phone.contains(where: \.isNumber), phone.allSatisfy({ allowed.contains($0) }) else {
            return "must be a phone number: digits, spaces and + - ( ) . / (x before an extension)"
        }
        return nil
    }

    /// The key e-mail addresses are unique under: trimmed and lower-cased.
    public static func emailKey(_ email: String) -> String {
        normalized(email).lowercased()
    }

    /// Text folded for searching: lower case, without accents (`Zoë Lefèvre` → `zoe lefevre`).
    public static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }
}
