import Foundation
import Spearal

/// An announcement's request to be acknowledged, as a version 3.0 list item shows it: the same
/// for every reader (whether *you* acknowledged is on the detail, and in `?pending=true`).
public struct AcknowledgementRequirement: Codable, Sendable, Equatable, Hashable {
    /// Always `true` (an announcement that asks nothing has `acknowledgement: null`).
    public var required: Bool
    /// When readers should have acknowledged it; `nil` for no date.
    public var dueAt: Date?
    /// The round asked for, from 1: an editor who changes the body materially may ask everyone
    /// again, which starts the next round (acknowledgements of earlier rounds no longer count).
    public var round: Int

    /// Creates a requirement.
    public init(required: Bool = true, dueAt: Date? = nil, round: Int) {
        self.required = required
        self.dueAt = dueAt
        self.round = round
    }

    private enum CodingKeys: String, CodingKey { case required, dueAt, round }

    /// Reads a requirement; `dueAt` may be absent or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        required = try container.decode(Bool.self, forKey: .required)
        dueAt = try container.decodeIfPresent(Date.self, forKey: .dueAt)
        round = try container.decode(Int.self, forKey: .round)
    }

    /// Writes every key, `dueAt` as `null` when unset.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(required, forKey: .required)
        try container.encode(dueAt, forKey: .dueAt)
        try container.encode(round, forKey: .round)
    }
}

/// An announcement's request to be acknowledged, as a version 3.0 detail shows it to the reader
/// who asks: the requirement, and when that reader acknowledged the current round.
public struct AnnouncementAcknowledgement: Codable, Sendable, Equatable, Hashable {
    /// Always `true` (an announcement that asks nothing has `acknowledgement: null`).
    public var required: Bool
    /// When readers should have acknowledged it; `nil` for no date.
    public var dueAt: Date?
    /// The round asked for, from 1.
    public var round: Int
    /// When the signed-in reader acknowledged this round; `nil` when they have not (always
    /// `nil` signed out).
    public var acknowledgedAt: Date?

    /// Creates the detail's acknowledgement.
    public init(required: Bool = true, dueAt: Date? = nil, round: Int, acknowledgedAt: Date? = nil) {
        self.required = required
        self.dueAt = dueAt
        self.round = round
        self.acknowledgedAt = acknowledgedAt
    }

    /// The requirement alone (what a list item shows).
    public var requirement: AcknowledgementRequirement {
        AcknowledgementRequirement(required: required, dueAt: dueAt, round: round)
    }

    /// Whether it is past its due date at `now` without the reader's acknowledgement.
    public func isOverdue(at now: Date) -> Bool {
        acknowledgedAt == nil && (dueAt.map { $0 <= now } ?? false)
    }

    private enum CodingKeys: String, CodingKey { case required, dueAt, round, acknowledgedAt }

    /// Reads it; `dueAt` and `acknowledgedAt` may be absent or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        required = try container.decode(Bool.self, forKey: .required)
        dueAt = try container.decodeIfPresent(Date.self, forKey: .dueAt)
        round = try container.decode(Int.self, forKey: .round)
        acknowledgedAt = try container.decodeIfPresent(Date.self, forKey: .acknowledgedAt)
    }

    /// Writes every key, unset times as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(required, forKey: .required)
        try container.encode(dueAt, forKey: .dueAt)
        try container.encode(round, forKey: .round)
        try container.encode(acknowledgedAt, forKey: .acknowledgedAt)
    }
}

/// What an editor writes in `acknowledgement` (`POST`, `PUT`, `PATCH`, version 3.0): `null`
/// asks nothing; an object asks readers to acknowledge.
public struct AcknowledgementSetting: Codable, Sendable, Equatable, Hashable {
    /// `true` to ask for acknowledgements (`false` is the same as `acknowledgement: null`).
    public var required: Bool
    /// When readers should have acknowledged it; `nil` keeps the stored date (none, the first
    /// time), unless ``removesDueAt``.
    public var dueAt: Date?
    /// `true` to remove the stored due date (sends `"dueAt": null`).
    public var removesDueAt: Bool
    /// `true` to ask everyone again: the next round starts, and acknowledgements of the current
    /// one no longer count (for a material change; a typo fix leaves it out and keeps them).
    public var newRound: Bool

    /// Creates a setting.
    public init(required: Bool = true, dueAt: Date? = nil, removesDueAt: Bool = false, newRound: Bool = false) {
        self.required = required
        self.dueAt = dueAt
        self.removesDueAt = removesDueAt
        self.newRound = newRound
    }

    private enum CodingKeys: String, CodingKey { case required, dueAt, newRound }

    /// Reads a setting; `dueAt` and `newRound` may be absent (an explicit `null` due date
    /// removes the stored one).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        required = try container.decode(Bool.self, forKey: .required)
        dueAt = try container.decodeIfPresent(Date.self, forKey: .dueAt)
        removesDueAt = container.contains(.dueAt) && dueAt == nil
        newRound = try container.decodeIfPresent(Bool.self, forKey: .newRound) ?? false
    }

    /// Writes `required`; `dueAt` when set (`null` with ``removesDueAt``, absent otherwise, so
    /// the stored date stays); `newRound` only when asked.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(required, forKey: .required)
        if let dueAt {
            try container.encode(dueAt, forKey: .dueAt)
        } else if removesDueAt {
            try container.encodeNil(forKey: .dueAt)
        }
        if newRound { try container.encode(true, forKey: .newRound) }
    }
}

/// The answer of `PUT /announcements/{id}/acknowledgement`: the round acknowledged and when it
/// was first acknowledged (the same on every repeat).
public struct AcknowledgementReceipt: Codable, Sendable, Equatable, Hashable {
    /// The round acknowledged.
    public var round: Int
    /// When the reader first acknowledged this round.
    public var acknowledgedAt: Date

    /// Creates a receipt.
    public init(round: Int, acknowledgedAt: Date) {
        self.round = round
        self.acknowledgedAt = acknowledgedAt
    }
}

/// The reach of one announcement, for editors and admins (`GET /announcements/{id}/reach`):
/// who it is for, who acknowledged the current round, and how many opened it. The departments'
/// numbers add up to the whole.
public struct ReachReport: Codable, Sendable, Equatable, Hashable {
    /// The accounts that may read it as readers: everyone's for an announcement to everyone;
    /// otherwise those it names and those in its departments and teams.
    public var audience: Int
    /// Of them, how many acknowledged the current round.
    public var acknowledged: Int
    /// Of them, how many have not (yet).
    public var pending: Int
    /// Of the pending, how many are past the due date (all of them once it passed; 0 before or
    /// without one).
    public var overdue: Int
    /// How many distinct signed-in readers opened it (its page or its detail), counted without
    /// keeping who: an estimate, exact for small numbers and within about 2 % for large ones.
    public var opened: Int
    /// Acknowledgements of the current round by accounts since deleted ("former employees"):
    /// counted, no longer in the audience, not named.
    public var formerEmployees: Int
    /// The round reported on; 0 when the announcement never asked for acknowledgements.
    public var round: Int
    /// Whether it asks for acknowledgements now.
    public var required: Bool
    /// Its due date, when it has one.
    public var dueAt: Date?
    /// The audience by department (from the people directory), largest first; accounts not in
    /// the directory or with no department count under ``DepartmentReach/noDepartment``.
    public var departments: [DepartmentReach]

    /// Creates a report.
    public init(
        audience: Int, acknowledged: Int, pending: Int, overdue: Int, opened: Int, formerEmployees: Int = 0, round: Int,
        required: Bool, dueAt: Date? = nil, departments: [DepartmentReach]
    ) {
        self.audience = audience
        self.acknowledged = acknowledged
        self.pending = pending
        self.overdue = overdue
        self.opened = opened
        self.formerEmployees = formerEmployees
        self.round = round
        self.required = required
        self.dueAt = dueAt
        self.departments = departments
    }

    private enum CodingKeys: String, CodingKey {
        case audience, acknowledged, pending, overdue, opened, formerEmployees, round, required, dueAt, departments
    }

    /// Reads a report.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        audience = try container.decode(Int.self, forKey: .audience)
        acknowledged = try container.decode(Int.self, forKey: .acknowledged)
        pending = try container.decode(Int.self, forKey: .pending)
        overdue = try container.decode(Int.self, forKey: .overdue)
        opened = try container.decode(Int.self, forKey: .opened)
        formerEmployees = try container.decodeIfPresent(Int.self, forKey: .formerEmployees) ?? 0
        round = try container.decode(Int.self, forKey: .round)
        required = try container.decode(Bool.self, forKey: .required)
        dueAt = try container.decodeIfPresent(Date.self, forKey: .dueAt)
        departments = try container.decode([DepartmentReach].self, forKey: .departments)
    }

    /// Writes every key, `dueAt` as `null` when unset.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(audience, forKey: .audience)
        try container.encode(acknowledged, forKey: .acknowledged)
        try container.encode(pending, forKey: .pending)
        try container.encode(overdue, forKey: .overdue)
        try container.encode(opened, forKey: .opened)
        try container.encode(formerEmployees, forKey: .formerEmployees)
        try container.encode(round, forKey: .round)
        try container.encode(required, forKey: .required)
        try container.encode(dueAt, forKey: .dueAt)
        try container.encode(departments, forKey: .departments)
    }
}

/// One department's part of a ``ReachReport``.
public struct DepartmentReach: Codable, Sendable, Equatable, Hashable {
    /// The name under which the audience with no department is counted.
    public static let noDepartment = "No department"

    /// The department, as the directory writes it (or ``noDepartment``).
    public var name: String
    /// Its people in the audience.
    public var audience: Int
    /// Of them, how many acknowledged the current round.
    public var acknowledged: Int
    /// Of them, how many have not.
    public var pending: Int

    /// Creates a department's numbers.
    public init(name: String, audience: Int, acknowledged: Int, pending: Int) {
        self.name = name
        self.audience = audience
        self.acknowledged = acknowledged
        self.pending = pending
    }
}

extension AcknowledgementRequirement: SpearalClassNamed {
    /// `intranet.AcknowledgementRequirement`: only ever nested in an announcement.
    public static var spearalClassName: String { "intranet.AcknowledgementRequirement" }
}

extension AnnouncementAcknowledgement: SpearalClassNamed {
    /// `intranet.Acknowledgement`: only ever nested in an announcement.
    public static var spearalClassName: String { "intranet.Acknowledgement" }
}

extension AcknowledgementSetting: SpearalClassNamed {
    /// `intranet.Acknowledgement`: the setting is the acknowledgement as its editor sends it.
    public static var spearalClassName: String { "intranet.Acknowledgement" }
}

extension AcknowledgementReceipt: SpearalClassNamed {
    /// `intranet.AcknowledgementReceipt`.
    public static var spearalClassName: String { "intranet.AcknowledgementReceipt" }
}

extension ReachReport: SpearalClassNamed {
    /// `intranet.ReachReport`.
    public static var spearalClassName: String { "intranet.ReachReport" }
}

extension DepartmentReach: SpearalClassNamed {
    /// `intranet.DepartmentReach`.
    public static var spearalClassName: String { "intranet.DepartmentReach" }
}
