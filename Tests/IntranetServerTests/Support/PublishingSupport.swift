import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import NIOConcurrencyHelpers
import Spearal
import Testing
@testable import IntranetServer

/// A wall clock a test moves by hand (`AppConfiguration.now`). It starts at a whole second of
/// the real time, so that the test accounts' sessions (an hour from their creation) stay valid
/// while it moves by minutes.
final class TestClock: Sendable {
    private let box: NIOLockedValueBox<Date>

    init(_ start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        box = NIOLockedValueBox(start)
    }

    var now: Date { box.withLockedValue { $0 } }

    func set(_ date: Date) { box.withLockedValue { $0 = date } }
}

/// Runs a test against a live server (real socket, early answers) whose clock is `clock`.
func withClockedServer(
    _ storage: TestStorage = .sqlite, clock: TestClock,
    _ test: @Sendable (IntranetServer, any TestClientProtocol) async throws -> Void
) async throws {
    try await withTestServer(storage, mode: .live, configure: { $0.now = { clock.now } }, test)
}

/// An instant as the API writes it (RFC 3339, UTC, milliseconds).
func rfc3339(_ date: Date) -> String { IntranetJSON.format(date) }

extension TestClientProtocol {
    /// Creates an announcement as the editor; its id.
    func createAnnouncement(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        let response = try await send(.post, "/announcements", json: json, as: .editor)
        try #require(response.status == .created, "\(response.text)", sourceLocation: sourceLocation)
        return try #require(try response.object()["id"] as? Int, sourceLocation: sourceLocation)
    }
}

extension TestResponse {
    /// The ids of a JSON list, in order.
    func ids() throws -> [Int] { try objects().compactMap { $0["id"] as? Int } }

    /// The field names of a 422's errors, in order.
    func errorFields() throws -> [String] {
        try (object()["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }
}

/// One way of reading an announcement, and how to tell whether the answer shows it.
struct VisibilityProbe: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        /// A JSON list (`X-Total` counts it).
        case list
        /// A Spearal list.
        case spearalList
        /// A detail, JSON or Spearal: 200 or 404.
        case detail
        /// A web page listing announcements (a link to it).
        case listPage
        /// The web page of the announcement: 200 or 404.
        case detailPage
        /// `GET /search`'s JSON (its announcements group).
        case search
    }

    var description: String
    var kind: Kind
    var uri: String
    var version: String?
    var headers: HTTPFields = [:]
    var caller: TestUser?

    func read(_ client: some TestClientProtocol) async throws -> TestResponse {
        switch kind {
        case .listPage, .detailPage:
            return try await client.page(uri, as: caller, headers: headers)
        case .list, .spearalList, .detail, .search:
            return try await client.send(.get, uri, version: version, headers: headers, as: caller.map(Caller.user) ?? .anonymous)
        }
    }

    /// Whether `answer` shows announcement `id`; throws on an answer of neither state.
    func shows(_ answer: TestResponse, id: Int) throws -> Bool {
        switch kind {
        case .list:
            try #require(answer.status == .ok, "\(self): \(answer.status)")
            return try answer.ids().contains(id)
        case .spearalList:
            try #require(answer.status == .ok, "\(self): \(answer.status)")
            return try answer.beans().contains { $0.int("id") == id }
        case .listPage:
            try #require(answer.status == .ok, "\(self): \(answer.status)")
            return answer.text.contains("/announcements/\(id)\"")
        case .search:
            try #require(answer.status == .ok, "\(self): \(answer.status)")
            let group = try answer.object()["announcements"] as? [String: Any]
            let ids = (group?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            try #require((group?["total"] as? Int ?? -1) >= ids.count, "\(self): \(answer.text)")
            return ids.contains(id)
        case .detail, .detailPage:
            try #require(answer.status == .ok || answer.status == .notFound, "\(self): \(answer.status)")
            return answer.status == .ok
        }
    }

    /// Every read path of announcement `id`: lists of each version (and their total), Spearal,
    /// details, signed out and as the reader, the web's pages (`search` on the home page), and
    /// the one search (`GET /search`, API and web).
    static func everyPath(of id: Int, search: String) -> [VisibilityProbe] {
        let spearal: HTTPFields = [.accept: "application/spearal"]
        return [
            VisibilityProbe(description: "list signed out, latest", kind: .list, uri: "/announcements"),
            VisibilityProbe(description: "list signed out, 2.0", kind: .list, uri: "/announcements", version: "2.0"),
            VisibilityProbe(description: "list signed out, 1.0", kind: .list, uri: "/announcements", version: "1.0"),
            VisibilityProbe(description: "list in Spearal", kind: .spearalList, uri: "/announcements", headers: spearal),
            VisibilityProbe(description: "list as reader, 3.0", kind: .list, uri: "/announcements", version: "3.0", caller: .reader),
            VisibilityProbe(description: "list as reader, 2.0", kind: .list, uri: "/announcements", version: "2.0", caller: .reader),
            VisibilityProbe(description: "detail signed out, latest", kind: .detail, uri: "/announcements/\(id)"),
            VisibilityProbe(description: "detail signed out, 1.0", kind: .detail, uri: "/announcements/\(id)", version: "1.0"),
            VisibilityProbe(description: "detail in Spearal, 2.0", kind: .detail, uri: "/announcements/\(id)", version: "2.0", headers: spearal),
            VisibilityProbe(description: "detail as reader", kind: .detail, uri: "/announcements/\(id)", caller: .reader),
            VisibilityProbe(description: "web home signed out", kind: .listPage, uri: "/"),
            VisibilityProbe(description: "web home as reader", kind: .listPage, uri: "/", caller: .reader),
            VisibilityProbe(description: "web search signed out", kind: .listPage, uri: "/?q=\(search)"),
            VisibilityProbe(description: "web search as reader", kind: .listPage, uri: "/?q=\(search)", caller: .reader),
            VisibilityProbe(description: "one search signed out", kind: .search, uri: "/search?q=\(search)"),
            VisibilityProbe(description: "one search as reader", kind: .search, uri: "/search?q=\(search)", caller: .reader),
            VisibilityProbe(description: "web results page signed out", kind: .listPage, uri: "/search?q=\(search)"),
            VisibilityProbe(description: "web page signed out", kind: .detailPage, uri: "/announcements/\(id)"),
            VisibilityProbe(description: "web page as reader", kind: .detailPage, uri: "/announcements/\(id)", caller: .reader),
        ]
    }
}

extension Array where Element == VisibilityProbe {
    /// Reads each path three times, so that the last reads come from memory (the route cache,
    /// the event loop's early answers); expects some to have been answered early.
    func warm(on server: IntranetServer, _ client: some TestClientProtocol, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let hits = server.cache.publicAnswerHits
        for probe in self {
            for _ in 0..<3 { _ = try await probe.read(client) }
        }
        #expect(server.cache.publicAnswerHits > hits, "nothing was answered early", sourceLocation: sourceLocation)
    }

    /// Expects every path to show announcement `id` (or every path not to), lists to count
    /// `total` when given.
    func expect(
        _ client: some TestClientProtocol, showing id: Int, _ shown: Bool, total: Int? = nil, _ moment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for probe in self {
            let answer = try await probe.read(client)
            let shows = try probe.shows(answer, id: id)
            #expect(shows == shown, "\(moment): \(probe) \(shown ? "does not show" : "shows") \(id)", sourceLocation: sourceLocation)
            if let total, probe.kind == .list {
                #expect(answer.headers[.total] == String(total), "\(moment): \(probe) X-Total", sourceLocation: sourceLocation)
            }
        }
    }
}
