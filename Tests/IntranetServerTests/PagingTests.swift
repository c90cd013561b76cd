import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Paging and order of lists")
struct PagingTests {
    /// Adds announcements until there are `count` in all (six are seeded).
    private func fill(_ client: some TestClientProtocol, upTo count: Int) async throws {
        for number in 7...count {
            let response = try await client.send(.post, "/announcements", json: Body.object(["title": Body.string("Item \(number)")]))
            try #require(response.status == .created)
        }
    }

    private func ids(_ response: TestResponse) throws -> [Int] {
        try response.objects().compactMap { $0["id"] as? Int }
    }

    @Test("max and offset pick a slice, with X-Total, X-Page, X-Per-Page and Link", arguments: TestStorage.all)
    func maxOffset(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let response = try await client.send(.get, "/announcements?max=2&offset=2")

            #expect(try ids(response) == [3, 4])
            #expect(response.headers[.total] == "6")
            #expect(response.headers[.page] == "2")
            #expect(response.headers[.perPage] == "2")
            #expect(response.headers[.link] == [
                #"</announcements?max=2&offset=0>; rel="first""#,
                #"</announcements?max=2&offset=0>; rel="prev""#,
                #"</announcements?max=2&offset=4>; rel="next""#,
                #"</announcements?max=2&offset=4>; rel="last""#,
            ].joined(separator: ", "))
        }
    }

    @Test("page and per_page pick a page; Link keeps the other parameters", arguments: TestStorage.all)
    func pagePerPage(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let response = try await client.send(.get, "/announcements?sort=id&order=desc&page=2&per_page=4&tag=x%20y")

            #expect(try ids(response) == [2, 1])
            #expect(response.headers[.page] == "2")
            #expect(response.headers[.perPage] == "4")
            #expect(response.headers[.link] == [
                #"</announcements?sort=id&order=desc&tag=x%20y&page=1&per_page=4>; rel="first""#,
                #"</announcements?sort=id&order=desc&tag=x%20y&page=1&per_page=4>; rel="prev""#,
                #"</announcements?sort=id&order=desc&tag=x%20y&page=2&per_page=4>; rel="last""#,
            ].joined(separator: ", "))
        }
    }

    @Test("the default page is 10 items from the start, ordered by id")
    func defaults() async throws {
        try await withTestServer { _, client in
            try await fill(client, upTo: 12)

            let response = try await client.send(.get, "/announcements")

            #expect(try ids(response) == Array(1...10))
            #expect(response.headers[.total] == "12")
            #expect(response.headers[.perPage] == "10")
            #expect(response.headers[.link]?.contains(#"</announcements?max=10&offset=10>; rel="next""#) == true)
        }
    }

    @Test("max above 100 is capped to 100", arguments: ["max=101", "max=5000", "per_page=1000"])
    func cap(query: String) async throws {
        try await withTestServer { _, client in
            try await fill(client, upTo: 105)

            let response = try await client.send(.get, "/announcements?\(query)")

            #expect(try ids(response).count == 100)
            #expect(response.headers[.perPage] == "100")
            #expect(response.headers[.total] == "105")
        }
    }

    @Test("sort and order reorder the whole list", arguments: TestStorage.all)
    func sorting(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let byTitle = try await client.send(.get, "/announcements?sort=title&max=100")
            let newestFirst = try await client.send(.get, "/announcements?sort=createdAt&order=desc")
            let updated = try await client.send(.get, "/announcements?sort=updatedAt&order=asc")

            let titles = try byTitle.objects().compactMap { $0["title"] as? String }
            #expect(titles == titles.sorted())
            #expect(try ids(newestFirst) == [6, 5, 4, 3, 2, 1])
            #expect(try ids(updated) == [1, 2, 3, 4, 5, 6])
        }
    }

    @Test("an offset past the end gives an empty array with the real total")
    func pastTheEnd() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements?offset=50")

            #expect(response.status == .ok)
            #expect(try response.json() as? [Any] != nil)
            #expect(try ids(response).isEmpty)
            #expect(response.headers[.total] == "6")
        }
    }

    @Test("bad paging parameters are 400 naming the parameter", arguments: [
        ("max=0", "max"), ("max=-1", "max"), ("offset=-3", "offset"), ("max=abc", "max"), ("max=1.5", "max"),
        ("max=", "max"), ("page=0", "page"), ("per_page=0", "per_page"), ("page=x", "page"),
        ("sort=body", "sort"), ("order=up", "order"), ("max=2&page=1", "max/offset"), ("max=1&max=2", "max"),
        ("offset=99999999999999999999", "offset"),
    ])
    func badParameters(query: String, named: String) async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/announcements?\(query)")

            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/problem+json")
            let detail = try #require(try response.object()["detail"] as? String)
            #expect(detail.contains(named))
        }
    }

    @Test("the last link of an empty list points at the first page")
    func emptyList() async throws {
        try await withTestServer(configure: { $0.seedsDatabase = false }) { _, client in
            let response = try await client.send(.get, "/announcements")

            #expect(try ids(response).isEmpty)
            #expect(response.headers[.total] == "0")
            #expect(response.headers[.link] == #"</announcements?max=10&offset=0>; rel="first", </announcements?max=10&offset=0>; rel="last""#)
        }
    }
}
