import IntranetAPI

/// One person of an ``OrgChart``, linked to their manager and reports.
///
/// While you hold a member, every way of reaching that person in the chart (a report's
/// `manager`, `member(id:)`, a `reports` list) gives back that same object (`===`); `==` and
/// hashing compare that identity. A member nobody holds any more is made afresh when next
/// reached, so compare members you hold, not remembered `ObjectIdentifier`s.
public final class OrgChartMember: Sendable, Hashable, Identifiable {
    private let storage: OrgChart.Storage
    private let index: Int

    init(storage: OrgChart.Storage, index: Int) {
        self.storage = storage
        self.index = index
    }

    /// The person's directory entry (name, e-mail, job title, …).
    public var person: Person { storage.people[index] }
    /// The person's id.
    public var id: Int { person.id }
    /// The person's full name.
    public var name: String { person.name }
    /// The manager, or `nil` at the top.
    public var manager: OrgChartMember? { storage.managerIndex[index].map(storage.member(at:)) }
    /// The people who report to this person, in the order received.
    public var reports: [OrgChartMember] { storage.reportIndices[index].map(storage.member(at:)) }
    /// The managers above this person, nearest first, up to the top (or until a manager
    /// repeats, should the chart hold a loop).
    public var managers: [OrgChartMember] {
        var chain: [OrgChartMember] = []
        var seen: Set<Int> = [index]
        var next = storage.managerIndex[index]
        while let at = next, seen.insert(at).inserted {
            chain.append(storage.member(at: at))
            next = storage.managerIndex[at]
        }
        return chain
    }

    public static func == (lhs: OrgChartMember, rhs: OrgChartMember) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
