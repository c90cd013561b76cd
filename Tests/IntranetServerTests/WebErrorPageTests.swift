import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// The pages' error boundary: the 404 page (for unknown announcements and for addresses nothing
/// serves), and the 500 and 503 pages that name nothing internal.
extension WebFrontEndTests {
    @Test("an unknown page is a 404 page in the site's layout")
    func notFoundPage() async throws {
        try await withTestServer(mode: .live) { _, client in
            let missing = try await client.page("/announcements/999")
            #expect(missing.status == .notFound)
            #expect(missing.headers[.contentType] == "text/html; charset=utf-8")
            #expect(missing.text.contains("<a class=\"skip\" href=\"#main\">") && missing.text.contains("<h1>Not found</h1>"))
        }
    }

    @Test("an address nothing serves is the 404 page for a browser and a problem body for API clients", arguments: ["/no-such-page", "/announcements/2/nothing", "/people/3/x/y", "/style.css/more"])
    func unknownAddress(path: String) async throws {
        try await withTestServer(mode: .live) { _, client in
            let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
            for method in [HTTPRequest.Method.get, .head] {
                let page = try await client.execute(uri: path, method: method, headers: [.accept: browser], body: nil)
                #expect(page.status == .notFound)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8", "\(method) \(path)")
                #expect(page.headers[.contentSecurityPolicy] != nil)
                guard method == .get else { continue }
                let html = page.text
                #expect(html.contains("<html lang=\"en\">"))
                #expect(html.components(separatedBy: "<h1").count == 2, "one h1")
                #expect(html.contains("<h1>Not found</h1>") && html.contains("There is no page at this address."))
                #expect(html.contains("<nav"), "the site's navigation")
            }
            for accept in ["application/json", "*/*", "application/problem+json"] {
                let problem = try await client.execute(uri: path, method: .get, headers: [.accept: accept], body: nil)
                #expect(problem.status == .notFound)
                #expect(problem.headers[.contentType] == "application/problem+json", "Accept: \(accept)")
            }
        }
    }

    @Test("an unexpected failure is a 500 page naming nothing internal; with the database down, a 503 page", arguments: [false, true])
    func failurePages(databaseDown: Bool) async throws {
        struct Leaky: Error, CustomStringConvertible { var description: String { "SELECT secret FROM passwords" } }
        try await withTestServer(mode: .live) { server, _ in
            let templates = try await WebTemplates.load()
            let real = FluentAnnouncementRepository(database: server.database.database)
            var book = RouteBook<AppRequestContext>()
            book.add(.get, "/boom") { _, _ in throw WebPageFailure(underlying: Leaky()) }
            let inner = Router(context: AppRequestContext.self)
            book.register(on: inner)
            let router = Router(context: AppRequestContext.self)
            router.add(middleware: WebMiddleware(
                web: book, api: [], responder: inner.buildResponder(), templates: templates,
                repository: databaseDown ? UnreachableDatabase() as any AnnouncementRepository : real,
                identity: { _ in WebIdentity(user: nil, sessionToken: nil, csrf: "") },
                contentSecurityPolicy: WebMiddleware.contentSecurityPolicy(embedHosts: []), maxBodySize: 1024))
            try await Application(router: router).test(.router) { client in
                let page = try await client.execute(uri: "/boom", method: .get, headers: [:], body: nil)
                #expect(page.status == (databaseDown ? .serviceUnavailable : .internalServerError))
                #expect(page.text.contains(databaseDown ? "<h1>The intranet is not answering</h1>" : "<h1>Something went wrong</h1>"))
                #expect(page.headers[.retryAfter] == (databaseDown ? "60" : nil))
                for leak in ["SELECT", "Leaky", "passwords", "Fluent", "SQLite"] {
                    #expect(!page.text.contains(leak), "\(leak)")
                }
                #expect(page.headers[.contentSecurityPolicy] != nil)
            }
        }
    }
}

/// A database that does not answer: every call fails as a lost connection would.
private struct UnreachableDatabase: AnnouncementRepository {
    struct ConnectionRefused: Error {}
    func list(_ request: ListRequest, visibility: Visibility) async throws -> (items: [StoredAnnouncement], total: Int) { throw ConnectionRefused() }
    func find(id: Int, visibility: Visibility) async throws -> StoredAnnouncement? { throw ConnectionRefused() }
    func create(_ content: AnnouncementContent) async throws -> StoredAnnouncement { throw ConnectionRefused() }
    func update(id: Int, precondition: WritePrecondition, change: @escaping @Sendable (StoredAnnouncement) throws -> AnnouncementContent) async throws -> StoredAnnouncement {
        throw ConnectionRefused()
    }
    func delete(id: Int, precondition: WritePrecondition) async throws { throw ConnectionRefused() }
    func search(_ query: SearchQuery, offset: Int, limit: Int, visibility: Visibility) async throws -> (items: [FoundAnnouncement], total: Int) {
        throw ConnectionRefused()
    }
    func ping() async throws { throw ConnectionRefused() }
}
