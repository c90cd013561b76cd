import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Testing

/// The SDK's people repository against the real server, in both formats: the same org chart,
/// the same people, the same errors.
@Suite("People end to end")
struct PeopleEndToEndTests {
    @Test("org() is the same object graph from Spearal and from JSON; search, chain and read agree", arguments: [WireFormat.json, .spearal])
    func graph(format: WireFormat) async throws {
        try await withLiveServer { url in
            let intranet = IntranetClient(baseURL: url, format: format)
            let org = try await intranet.people.org()
            #expect(org.count == 40)
            #expect(org.roots.map(\.name) == ["Margit Olsen"])
            let zoe = try #require(org.member(id: 3))
            #expect(zoe.reports.map(\.name) == ["Kwame Mensah", "Lena Fischer"])
            #expect(zoe.reports[0].manager === zoe && zoe.reports[1].manager === zoe)
            #expect(zoe.manager === org.roots[0])
            #expect(try #require(org.member(id: 31)).managers.map(\.id) == [22, 10, 3, 1])

            #expect(try await intranet.people.search("LEFÈVRE").items.map(\.id) == [3])
            #expect(try await intranet.people.chain(of: 31).map(\.id) == [31, 22, 10, 3, 1])
            let person = try await intranet.people.read(id: 3)
            #expect(person.managerId == 1 && person.reportIds == [9, 10] && person.email == "zoe.lefevre@brightwater.example")
            let page = try await intranet.people.read(page: 1, pageSize: 5, sortedBy: .department, order: .descending)
            #expect(page.info.total == 40 && page.items.count == 5 && page.items.first?.department == "People")
        }
    }

    @Test("editors create, patch and delete through the SDK; loops and orphaned reports are refused with the server's words", arguments: [WireFormat.json, .spearal])
    func writes(format: WireFormat) async throws {
        try await withLiveServer { url in
            let intranet = try await signedInClient(url, as: "editor", format: format)
            let hire = try await intranet.people.createVersioned(
                PersonDraft(name: "Nova Newhire", email: "nova@brightwater.example", jobTitle: "Analyst", department: "IT", managerId: 31))
            #expect(hire.value.managerId == 31)
            let moved = try await intranet.people.patch(PersonPatch(jobTitle: "Senior Analyst", managerId: .value(22)), of: hire)
            #expect(moved.value.jobTitle == "Senior Analyst" && moved.value.managerId == 22)
            #expect(try await intranet.people.read(id: 22).reportIds.contains(hire.value.id))

            await #expect {
                _ = try await intranet.people.patchUnconditionally(PersonPatch(managerId: .value(hire.value.id)), id: 3)
            } throws: { error in
                guard case RepositoryError.unprocessable(_, let fields) = error else { return false }
                return fields.first?.field == "managerId" && fields.first?.message.contains("Zoë Lefèvre (#3) → Nova Newhire") == true
            }
            await #expect {
                try await intranet.people.deleteUnconditionally(id: 22)
            } throws: { error in
                guard case RepositoryError.conflict = error else { return false }
                return true
            }
            try await intranet.people.delete(id: 22, reassigningReportsTo: .person(10))
            #expect(try await intranet.people.read(id: 10).reportIds == [31, hire.value.id, 32])
            // Moving her reports changed Nova's manager, so what was read before is stale.
            await #expect(throws: VersionConflict<Person>.self) { try await intranet.people.delete(moved) }
            try await intranet.people.delete(try await intranet.people.readVersioned(id: hire.value.id))
            await #expect(throws: RepositoryError.self) { _ = try await intranet.people.read(id: hire.value.id) }
        }
    }
}
