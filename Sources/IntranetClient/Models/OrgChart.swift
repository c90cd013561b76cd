import Foundation
import IntranetAPI
import Spearal

/// The whole organisation as an object graph a screen can walk both ways:
/// ``OrgChartMember/manager`` up, ``OrgChartMember/reports`` down.
///
/// It is the same whichever format the client speaks: from Spearal (where the server sends one
/// graph of shared person objects) or from JSON (a tree of ids), the chart is built the same.
/// Identity is kept: the manager reached from two reports is one object (`===`), and walking up
/// and down comes back to the object you started from.
///
/// Members hold the chart's storage strongly and the storage holds no member strongly (it makes
/// each member when first asked for and remembers it only while someone else does), so a chart
/// with reference cycles among its people — which the server never sends, but a message may hold
/// — neither leaks nor crashes, and a member outlives the chart it came from.
///
/// ```swift
/// let org = try await intranet.people.org()
/// for top in org.roots { print(top.name, top.reports.count) }
/// let zoe = org.member(id: 3)!
/// assert(zoe.reports[0].manager === zoe)
/// ```
public struct OrgChart: Sendable {
    private let storage: Storage

    /// The people without a manager (the top of the organisation), in the order received.
    public var roots: [OrgChartMember] { storage.roots.map(storage.member(at:)) }

    /// Everyone, in the order received (the top first, then depth first).
    public var members: [OrgChartMember] { storage.people.indices.map(storage.member(at:)) }

    /// How many people the chart holds.
    public var count: Int { storage.people.count }

    /// The member with this id, if the chart holds them.
    public func member(id: Int) -> OrgChartMember? {
        storage.indexByID[id].map(storage.member(at:))
    }

    /// A chart of `people`, linked by their `managerId`s (a manager the list lacks counts as
    /// none); `reportIds` are not needed: reports follow from managers, in the list's order.
    public init(people: [Person]) {
        storage = Storage(people: people, managers: people.map(\.managerId))
    }

    /// The chart the server's JSON `GET /org` describes: the nested tree, flattened.
    public init(tree: [OrgChartNode]) {
        var people: [Person] = []
        var managers: [Int?] = []
        var stack: [(node: OrgChartNode, manager: Int?)] = tree.reversed().map { ($0, nil) }
        while let (node, manager) = stack.popLast() {
            people.append(node.person)
            managers.append(manager ?? node.person.managerId)
            stack.append(contentsOf: node.reports.reversed().map { ($0, node.person.id) })
        }
        storage = Storage(people: people, managers: managers)
    }

    /// The chart a Spearal `GET /org` message holds: every `intranet.Person` bean reachable from
    /// `value` (through `manager`, `reports` and collections), each once however often it is
    /// referenced, cycles included. Call `dismantle()` on `value` afterwards.
    ///
    /// - Throws: ``OrgChartError`` for a bean without an integral `id` or a required text.
    public init(spearal value: SpearalValue) throws {
        var seen: Set<ObjectIdentifier> = []
        var beans: [SpearalBean] = []
        var pending: [SpearalValue] = [value]
        while let next = pending.popLast() {
            switch next {
            case .collection(let list):
                pending.append(contentsOf: list.elements.reversed())
            case .bean(let bean):
                guard seen.insert(ObjectIdentifier(bean)).inserted else { continue }
                beans.append(bean)
                if let reports = bean["reports"] { pending.append(reports) }
                if let manager = bean["manager"] { pending.append(manager) }
            default:
                continue
            }
        }
        let people = try beans.map(Self.person(from:))
        storage = Storage(people: people, managers: people.map(\.managerId))
    }

    private static func person(from bean: SpearalBean) throws -> Person {
        guard case .integral(let id)? = bean["id"] else { throw OrgChartError.missing("id", in: nil) }
        func text(_ name: String) throws -> String {
            guard case .string(let value)? = bean[name] else { throw OrgChartError.missing(name, in: id) }
            return value
        }
        func optionalText(_ name: String) -> String? {
            if case .string(let value)? = bean[name] { return value }
            return nil
        }
        var userID: Int?
        if case .integral(let value)? = bean["userId"] { userID = value }
        var reportIDs: [Int] = []
        if case .collection(let reports)? = bean["reports"] {
            for case .bean(let report) in reports.elements {
                if case .integral(let reportID)? = report["id"] { reportIDs.append(reportID) }
            }
        }
        var managerID: Int?
        if case .bean(let manager)? = bean["manager"], case .integral(let value)? = manager["id"] { managerID = value }
        return Person(
            id: id, name: try text("name"), email: try text("email"), jobTitle: try text("jobTitle"), department: try text("department"),
            phone: optionalText("phone"), location: optionalText("location"), managerId: managerID, reportIds: reportIDs, userId: userID)
    }

    /// The people and their links by index; members are made on demand and remembered weakly.
    final class Storage: @unchecked Sendable {
        // Immutable after init; `made` is guarded by `lock`.
        let people: [Person]
        let managerIndex: [Int?]
        let reportIndices: [[Int]]
        let roots: [Int]
        let indexByID: [Int: Int]
        private let lock = NSLock()
        private var made: [Int: WeakMember] = [:]

        init(people: [Person], managers: [Int?]) {
            var indexByID: [Int: Int] = [:]
            for (index, person) in people.enumerated() where indexByID[person.id] == nil {
                indexByID[person.id] = index
            }
            var reportIndices = Array(repeating: [Int](), count: people.count)
            var managerIndex: [Int?] = []
            var roots: [Int] = []
            for (index, manager) in managers.enumerated() {
                let managerAt = manager.flatMap { indexByID[$0] }
                managerIndex.append(managerAt)
                if let managerAt {
                    reportIndices[managerAt].append(index)
                } else {
                    roots.append(index)
                }
            }
            self.people = people
            self.managerIndex = managerIndex
            self.reportIndices = reportIndices
            self.roots = roots
            self.indexByID = indexByID
        }

        /// The member at `index`: the one already handed out while it lives, else a new one.
        func member(at index: Int) -> OrgChartMember {
            lock.lock()
            defer { lock.unlock() }
            if let member = made[index]?.member { return member }
            let member = OrgChartMember(storage: self, index: index)
            made[index] = WeakMember(member: member)
            return member
        }
    }

    struct WeakMember {
        weak var member: OrgChartMember?
    }
}
