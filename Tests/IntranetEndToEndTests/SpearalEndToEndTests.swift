import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import Spearal
import Testing

/// The SDK speaking Spearal to the real server: what travels really is Spearal, partial reads
/// come back as their own type, and a patch is a partial object.
@Suite("Spearal end to end")
struct SpearalEndToEndTests {
    @Test("with format .spearal every request asks for Spearal, every body sent and received is Spearal")
    func bytesAreSpearal() async throws {
        try await withLiveServer { url in
            let spy = SpyTransport(base: URLSessionTransport(configuration: .init(baseURL: url)))
            let intranet = IntranetClient(transport: spy, apiVersion: .v2_0, format: .spearal)
            _ = try await intranet.session.login(username: "editor", password: liveTestPassword)
            let created = try await intranet.announcements.createVersioned(AnnouncementDraft(title: "Binary news", body: "<p>b</p>"))
            let patched = try await intranet.announcements.patch(AnnouncementPatch(title: "Binary news, again"), of: created)
            _ = try await intranet.announcements.read(page: 1, pageSize: 10)
            _ = try await intranet.session.me()

            let exchanges = await spy.exchanges
            #expect(exchanges.count == 5)
            #expect(exchanges.allSatisfy { $0.accept == "application/spearal" })
            #expect(exchanges.allSatisfy { $0.responseType == "application/spearal" }, "\(exchanges)")
            #expect(exchanges.filter { $0.requestType != nil }.map(\.requestType) == Array(repeating: "application/spearal", count: 3))
            // The patch is a partial intranet.Announcement holding only the title.
            let patchBody = try #require(exchanges.first { $0.method == .patch }?.requestBody)
            guard case .bean(let bean) = try SpearalDecoder().decodeValue(from: patchBody) else {
                Issue.record("the patch body is not a bean")
                return
            }
            #expect(bean.className == "intranet.Announcement")
            #expect(bean.definedPropertyNames == ["title"])
            #expect(patched.title == "Binary news, again" && patched.body == "<p>b</p>")
        }
    }

    @Test("a read with fields gets a PartialAnnouncement holding only those, in either format", arguments: WireFormat.allCases)
    func partialReads(format: WireFormat) async throws {
        try await withLiveServer { url in
            let intranet = IntranetClient(baseURL: url, apiVersion: .v2_0, format: format)
            let v1 = IntranetClient(baseURL: url, apiVersion: .v1_0, format: format)

            let partial = try await intranet.announcements.readVersioned(id: 2, fields: [.title, .createdAt])
            let full = try await intranet.announcements.readVersioned(id: 2)
            let titles = try await v1.announcements.read(page: 1, pageSize: 3, fields: [.title])

            #expect(partial.value.id == 2)
            #expect(partial.value.title == full.value.title)
            #expect(partial.value.createdAt == full.value.createdAt)
            #expect(partial.value.body == .notIncluded && partial.value.updatedAt == nil)
            #expect(partial.etag != nil && partial.etag != full.etag)
            #expect(titles.items.map(\.id) == [1, 2, 3])
            #expect(titles.items.allSatisfy { $0.title != nil && $0.body == .notIncluded })
            #expect(titles.info.total == 6)
        }
    }

    @Test("an announcement read as Spearal equals the same announcement read as JSON, dates included")
    func sameValuesInBothFormats() async throws {
        try await withLiveServer { url in
            let json = try await signedInClient(url, as: "editor", format: .json)
            let spearal = try await signedInClient(url, as: "editor", format: .spearal)
            for index in 1...12 {
                _ = try await json.announcements.create(AnnouncementDraft(title: "Dated \(index)"))
            }

            for id in 1...18 {
                let fromJSON = try await json.announcements.read(id: id)
                let fromSpearal = try await spearal.announcements.read(id: id)
                #expect(fromJSON == fromSpearal, "announcement \(id)")
            }
        }
    }

    @Test("a field the version lacks is the server's 400, named")
    func unknownFieldForVersion() async throws {
        try await withLiveServer { url in
            let v1 = IntranetClient(baseURL: url, apiVersion: .v1_0, format: .spearal)

            let error = await #expect(throws: RepositoryError.self) { try await v1.announcements.read(id: 2, fields: [.createdAt]) }

            guard case .badRequest(let details) = try #require(error) else {
                Issue.record("expected badRequest, got \(String(describing: error))")
                return
            }
            #expect(details.problem?.detail?.contains("createdAt") == true)
        }
    }
}

/// Records what each exchange carried, then passes it on.
private actor ExchangeLog {
    var entries: [SpyTransport.Exchange] = []
    func append(_ entry: SpyTransport.Exchange) { entries.append(entry) }
}

private struct SpyTransport: Transport {
    struct Exchange: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        var accept: String?
        var requestType: String?
        var requestBody: Data?
        var responseType: String?

        var description: String { "\(method) \(path) accept=\(accept ?? "-") sent=\(requestType ?? "-") got=\(responseType ?? "-")" }
    }

    let base: any Transport
    private let log = ExchangeLog()

    init(base: any Transport) {
        self.base = base
    }

    var exchanges: [Exchange] {
        get async { await log.entries }
    }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let (response, data) = try await base.send(request, body: body)
        await log.append(Exchange(
            method: request.method, path: request.path ?? "", accept: request.headerFields[.accept],
            requestType: request.headerFields[.contentType], requestBody: body, responseType: response.headerFields[.contentType]))
        return (response, data)
    }
}
