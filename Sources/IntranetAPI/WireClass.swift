import Spearal

/// The classes of the API's objects, by the name they carry on the wire.
///
/// Spearal sends every object as a bean named by its class; these names are fixed and are the
/// same under every API version (only the properties differ), so a client in another language
/// can register them once. `Spearal-PropertyFilter` and `?fields=` name these classes and their
/// properties; ``properties(in:)`` says which properties each version has.
public enum WireClass: String, Sendable, CaseIterable {
    /// One announcement: the detail of every version, and the body of writes.
    case announcement = "intranet.Announcement"
    /// An item of the announcement list.
    case announcementSummary = "intranet.AnnouncementSummary"
    /// An account.
    case user = "intranet.User"
    /// The answer to `POST /login`.
    case loginResponse = "intranet.LoginResponse"
    /// A person of the staff directory (in Spearal, `manager` and `reports` are persons too).
    case person = "intranet.Person"
    /// A person in one line, as JSON's `?expand=` embeds it.
    case personSummary = "intranet.PersonSummary"
    /// A file attached to an announcement (version 3.0).
    case attachment = "intranet.Attachment"

    /// The properties objects of this class have under `version`, in wire (alphabetical) order.
    ///
    /// An editor's 2.0 and 3.0 detail adds `readers` (3.0 also `audience` and `markdown`); they are listed, since a filter may name it even
    /// where the caller does not get it.
    public func properties(in version: APIVersion) -> [String] {
        switch (self, version) {
        case (.announcement, .v1_0), (.announcementSummary, .v1_0): ["body", "id", "title"]
        case (.announcement, .v2_0): ["body", "createdAt", "id", "readers", "title", "updatedAt"]
        case (.announcementSummary, .v2_0): ["id", "title"]
        case (.announcement, .v3_0):
            [
                "acknowledgement", "attachments", "audience", "body", "createdAt", "expiresAt", "id", "important", "markdown", "pinned", "pinnedUntil", "publishAt",
                "readers", "status", "title", "updatedAt",
            ]
        case (.announcementSummary, .v3_0):
            ["acknowledgement", "createdAt", "expiresAt", "id", "important", "pinned", "pinnedUntil", "publishAt", "status", "title", "updatedAt"]
        case (.user, _): ["displayName", "id", "role", "username"]
        case (.loginResponse, _): ["expiresAt", "token", "user"]
        case (.person, _):
            ["department", "email", "id", "jobTitle", "location", "manager", "managerId", "name", "phone", "reportIds", "reports", "userId"]
        case (.personSummary, _): ["department", "id", "jobTitle", "name"]
        case (.attachment, _): ["alt", "height", "id", "mediaType", "name", "sha256", "size", "url", "variants", "width"]
        }
    }

    /// The properties sent whatever a filter says: the id, for classes that have one.
    public var unfilterableProperties: [String] {
        self == .loginResponse ? [] : ["id"]
    }

    /// The properties a filter keeps along with `property`: a person's `manager` and `reports`
    /// are objects in Spearal and ids in JSON (`managerId`, `reportIds`), and naming either
    /// keeps both, so one filter means the same in both formats.
    public func companions(of property: String) -> [String] {
        switch (self, property) {
        case (.person, "manager"): ["managerId"]
        case (.person, "reports"): ["reportIds"]
        default: []
        }
    }
}

extension AnnouncementV1.Detail: SpearalClassNamed {
    /// `intranet.Announcement`.
    public static var spearalClassName: String { WireClass.announcement.rawValue }
}

extension AnnouncementV1.ListItem: SpearalClassNamed {
    /// `intranet.AnnouncementSummary`.
    public static var spearalClassName: String { WireClass.announcementSummary.rawValue }
}

extension AnnouncementV2.Detail: SpearalClassNamed {
    /// `intranet.Announcement`.
    public static var spearalClassName: String { WireClass.announcement.rawValue }
}

extension AnnouncementV2.EditorDetail: SpearalClassNamed {
    /// `intranet.Announcement`.
    public static var spearalClassName: String { WireClass.announcement.rawValue }
}

extension AnnouncementV2.ListItem: SpearalClassNamed {
    /// `intranet.AnnouncementSummary`.
    public static var spearalClassName: String { WireClass.announcementSummary.rawValue }
}

extension AnnouncementV3.Detail: SpearalClassNamed {
    /// `intranet.Announcement`.
    public static var spearalClassName: String { WireClass.announcement.rawValue }
}

extension AnnouncementV3.ListItem: SpearalClassNamed {
    /// `intranet.AnnouncementSummary`.
    public static var spearalClassName: String { WireClass.announcementSummary.rawValue }
}

extension AnnouncementAudience: SpearalClassNamed {
    /// `intranet.Audience`: only ever nested in an announcement, so filters do not name it.
    public static var spearalClassName: String { "intranet.Audience" }
}

extension AnnouncementDraft: SpearalClassNamed {
    /// `intranet.Announcement`: a draft is the announcement as its writer sends it.
    public static var spearalClassName: String { WireClass.announcement.rawValue }
}

extension User: SpearalClassNamed {
    /// `intranet.User`.
    public static var spearalClassName: String { WireClass.user.rawValue }
}

extension LoginResponse: SpearalClassNamed {
    /// `intranet.LoginResponse`.
    public static var spearalClassName: String { WireClass.loginResponse.rawValue }
}

extension LoginRequest: SpearalClassNamed {
    /// `intranet.LoginRequest` (the server does not check the class of a request body).
    public static var spearalClassName: String { "intranet.LoginRequest" }
}

extension NewUser: SpearalClassNamed {
    /// `intranet.User`: a new user is the account as the admin sends it.
    public static var spearalClassName: String { WireClass.user.rawValue }
}

extension Person: SpearalClassNamed {
    /// `intranet.Person`.
    public static var spearalClassName: String { WireClass.person.rawValue }
}

extension PersonSummary: SpearalClassNamed {
    /// `intranet.PersonSummary`.
    public static var spearalClassName: String { WireClass.personSummary.rawValue }
}

extension OrgChartNode: SpearalClassNamed {
    /// `intranet.Person`: a node of the JSON tree is the person with nested reports.
    public static var spearalClassName: String { WireClass.person.rawValue }
}

extension PersonDraft: SpearalClassNamed {
    /// `intranet.Person`: a draft is the person as an editor sends it.
    public static var spearalClassName: String { WireClass.person.rawValue }
}
