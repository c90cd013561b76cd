import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Spearal
import Testing

/// ``OrgChart`` from both formats: identity kept, cycles walked without leaking or crashing.
@Suite("The org chart: one object graph from Spearal or JSON")
struct OrgChartTests {
    private static func bean(_ id: Int) -> SpearalBean {
        SpearalBean(className: "intranet.Person", properties: [
            ("department", .string("Dept \(id % 7)")), ("email", .string("p\(id)@brightwater.example")), ("id", .integral(id)),
            ("jobTitle", .string("Title \(id)")), ("location", .null), ("name", .string("Person \(id)")), ("phone", .null), ("userId", .null),
        ])
    }

    /// `count` beans where each one's manager is `manager(i)` (an index) and reports follow.
    private static func message(count: Int, manager: (Int) -> Int?, listed: [Int]) throws -> Data {
        let beans = (0..<count).map(bean)
        var reports = Array(repeating: [SpearalValue](), count: count)
        for index in 0..<count {
            if let boss = manager(index) { reports[boss].append(.bean(beans[index])) }
        }
        for index in 0..<count {
            beans[index].properties.append(("manager", manager(index).map { .bean(beans[$0]) } ?? .null))
            beans[index].properties.append(("reports", .collection(SpearalList(reports[index]))))
        }
        let value = SpearalValue.collection(SpearalList(listed.map { .bean(beans[$0]) }))
        defer { value.dismantle() }
        return try SpearalEncoder().encodeValue(value)
    }

    private static func org(spearal data: Data) async throws -> OrgChart {
        let transport = MockTransport(script: [MockResponse(headerFields: [.contentType: "application/spearal"], body: data)])
        let intranet = IntranetClient(transport: transport, format: .spearal, configuration: IntranetClientConfiguration(sleep: { _ in }))
        let chart = try await intranet.people.org()
        #expect(await transport.lastRequest?.request.path == "/org")
        return chart
    }

    @Test("a cycle of managers (length 1, 2 and 50) is walked round to the very same object, and nothing leaks", arguments: [1, 2, 50])
    func cycles(length: Int) async throws {
        let data = try Self.message(count: length, manager: { ($0 + 1) % length }, listed: [0])
        weak var probe: OrgChartMember?
        do {
            let chart = try await Self.org(spearal: data)
            #expect(chart.count == length)
            #expect(chart.roots.isEmpty, "everyone has a manager")
            let first = try #require(chart.member(id: 0))
            probe = first
            var walker = first
            for _ in 0..<length { walker = try #require(walker.manager) }
            #expect(walker === first, "going round the loop comes back to the same object")
            #expect(first.managers.count == length - 1, "the chain of managers stops where it repeats")
            #expect(first.reports.count == 1 && first.reports[0].manager === first)
        }
        #expect(probe == nil, "no member outlives the chart through a reference cycle")
    }

    @Test("ten thousand people: each report's manager is the one object that lists it, from Spearal and from JSON alike")
    func tenThousand() async throws {
        let count = 10_000
        let managerOf: (Int) -> Int? = { $0 == 0 ? nil : ($0 - 1) / 10 }
        let spearal = try await Self.org(spearal: try Self.message(count: count, manager: managerOf, listed: [0]))

        func node(_ index: Int) -> OrgChartNode {
            let children = (1...10).map { index * 10 + $0 }.filter { $0 < count }
            return OrgChartNode(
                person: Person(id: index, name: "Person \(index)", email: "p\(index)@brightwater.example", jobTitle: "Title \(index)",
                               department: "Dept \(index % 7)", managerId: managerOf(index), reportIds: children),
                reports: children.map(node))
        }
        let transport = MockTransport(script: [.json([node(0)])])
        let json = try await IntranetClient(transport: transport, configuration: IntranetClientConfiguration(sleep: { _ in })).people.org()

        for chart in [spearal, json] {
            #expect(chart.count == count)
            #expect(chart.roots.map(\.id) == [0])
            var visited = 0
            for member in chart.members {
                visited += 1
                for report in member.reports { #expect(report.manager === member) }
                if let manager = managerOf(member.id) { #expect(member.manager?.id == manager) }
            }
            #expect(visited == count)
            let boss = try #require(chart.member(id: 1))
            #expect(boss.reports[0].manager === boss.reports[9].manager, "the manager reached from two reports is one object")
            #expect(try #require(chart.member(id: 9_999)).managers.map(\.id) == [999, 99, 9, 0])
        }
        #expect(spearal.members.map(\.person) == json.members.map(\.person), "both formats give the same people in the same order")
    }

    @Test("a Spearal answer that is not an org chart is undecodable, not a crash")
    func malformed() async throws {
        let broken = SpearalBean(className: "intranet.Person", properties: [("name", .string("No id"))])
        let data = try SpearalEncoder().encodeValue(.collection(SpearalList([.bean(broken)])))
        await #expect {
            _ = try await Self.org(spearal: data)
        } throws: { error in
            guard case RepositoryError.undecodable = error else { return false }
            return true
        }
        await #expect(throws: RepositoryError.self) {
            _ = try await Self.org(spearal: Data([0xFF, 0x01]))
        }
    }
}
