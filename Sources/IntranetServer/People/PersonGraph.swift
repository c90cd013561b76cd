import IntranetAPI
import Spearal

/// People as Spearal sends them: `intranet.Person` beans whose `manager` and `reports` are the
/// person objects themselves, so that an answer is one graph in which everyone appears once and
/// the cycles (a manager's reports point back at the manager) are references.
///
/// A person at the edge of an answer (a manager or report of someone the answer is about)
/// carries only their own properties: `manager` and `reports` are left out of their bean,
/// which Spearal tells apart from `null` (no manager).
final class PersonGraphNode: Encodable, SpearalClassNamed {
    static var spearalClassName: String { WireClass.person.rawValue }

    let person: StoredPerson
    /// Whether `manager` is part of this answer.
    var carriesManager = false
    /// Whether `reports` is part of this answer.
    var carriesReports = false
    var manager: PersonGraphNode?
    var reports: [PersonGraphNode] = []

    init(_ person: StoredPerson) {
        self.person = person
    }

    private enum CodingKeys: String, CodingKey {
        case department, email, id, jobTitle, location, manager, name, phone, reports, userId
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(person.department, forKey: .department)
        try container.encode(person.email, forKey: .email)
        try container.encode(person.id, forKey: .id)
        try container.encode(person.jobTitle, forKey: .jobTitle)
        try container.encode(person.location, forKey: .location)
        if carriesManager { try container.encode(manager, forKey: .manager) }
        try container.encode(person.name, forKey: .name)
        try container.encode(person.phone, forKey: .phone)
        if carriesReports { try container.encode(reports, forKey: .reports) }
        try container.encode(person.userID, forKey: .userId)
    }
}

/// The nodes of one answer, owned here: links between nodes are strong both ways (a manager
/// holds its reports, each report its manager), so ``dismantle()`` breaks them once the answer
/// is encoded.
final class PersonGraph {
    private(set) var nodes: [Int: PersonGraphNode] = [:]

    /// The node of `person`, made once.
    func node(_ person: StoredPerson) -> PersonGraphNode {
        if let node = nodes[person.id] { return node }
        let node = PersonGraphNode(person)
        nodes[person.id] = node
        return node
    }

    /// The node of `id`, if that person is part of the answer.
    subscript(id: Int) -> PersonGraphNode? { nodes[id] }

    /// Encodes `root` and breaks every link, so no node outlives the answer.
    func encode(_ root: some Encodable, with representation: Representation) throws -> [UInt8] {
        defer { dismantle() }
        return Array(try representation.encode(root).readableBytesView)
    }

    func dismantle() {
        for node in nodes.values {
            node.manager = nil
            node.reports = []
        }
        nodes = [:]
    }

    /// The org chart: everyone, each with their manager and reports; the roots are the people
    /// without a manager, in `people`'s order.
    ///
    /// The API refuses loops of managers, but a database edited by hand may hold one, and the
    /// people in it (and under them) would hang from no root. Each such loop is cut once, so
    /// everyone appears exactly once and every walk down `reports` ends: its member first in
    /// `people`'s order becomes a root too, still naming their manager, who no longer lists
    /// them among their reports.
    static func organisation(_ people: [StoredPerson]) -> (graph: PersonGraph, roots: [PersonGraphNode]) {
        let graph = PersonGraph()
        for person in people {
            let node = graph.node(person)
            node.carriesManager = true
            node.carriesReports = true
        }
        var roots: [PersonGraphNode] = []
        for person in people {
            let node = graph.node(person)
            if let managerID = person.managerID, let manager = graph.nodes[managerID] {
                node.manager = manager
                manager.reports.append(node)
            } else {
                roots.append(node)
            }
        }
        var reached = Set<Int>()
        func reach(_ node: PersonGraphNode) {
            var pending = [node]
            while let next = pending.popLast() {
                guard reached.insert(next.person.id).inserted else { continue }
                pending.append(contentsOf: next.reports)
            }
        }
        roots.forEach(reach)
        let order = Dictionary(people.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for person in people where !reached.contains(person.id) {
            // Up from someone no root reaches, the managers must come round to a loop.
            var seen: [Int] = []
            var node = graph.node(person)
            while let manager = node.manager, !seen.contains(node.person.id) {
                seen.append(node.person.id)
                node = manager
            }
            let loop = seen.drop { $0 != node.person.id }
            guard let first = loop.min(by: { order[$0, default: .max] < order[$1, default: .max] }), let cut = graph.nodes[first] else { continue }
            cut.manager?.reports.removeAll { $0 === cut }
            roots.append(cut)
            reach(cut)
        }
        return (graph, roots)
    }
}
