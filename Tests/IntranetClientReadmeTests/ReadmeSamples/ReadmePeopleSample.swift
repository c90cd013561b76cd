// The README's "People and the org chart" sample, verbatim from its first import on.
import IntranetClient

/// Who works for someone, and whom they work for: one graph, walked both ways.
func team(of id: Int, in intranet: IntranetClient) async throws -> (reports: [String], managers: [String]) {
    let org = try await intranet.people.org()
    guard let person = org.member(id: id) else { return ([], []) }
    precondition(person.reports.allSatisfy { $0.manager === person })  // the same object, not a copy
    return (person.reports.map(\.name), person.managers.map(\.name))
}
