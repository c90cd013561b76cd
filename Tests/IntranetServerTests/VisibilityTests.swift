import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Who sees which announcement")
struct VisibilityTests {
    /// Restricts announcement 3 to the reader (user 3); returns its ETag as the editor sees it.
    @discardableResult
    private func restrictThree(_ client: some TestClientProtocol) async throws -> String? {
        let response = try await client.send(.patch, "/announcements/3", json: #"{"readers":[3]}"#, as: .editor)
        try #require(response.status == .ok)
        return response.headers[.eTag]
    }

    private func ids(_ response: TestResponse) throws -> [Int] {
        try response.objects().compactMap { $0["id"] as? Int }
    }

    @Test("a restricted announcement is hidden from everyone else: 404 on read, absent from lists and X-Total", arguments: TestStorage.all)
    func hidden(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            try await restrictThree(client)

            for caller in [Caller.anonymous, .otherReader] {
                let list = try await client.send(.get, "/announcements?max=2&offset=2", as: caller)
                #expect(try ids(list) == [4, 5])
                #expect(list.headers[.total] == "5")
                // Five visible items fill one page of five exactly: no next page, the last is the first.
                let page = try await client.send(.get, "/announcements?max=5", as: caller)
                #expect(page.headers[.link] == #"</announcements?max=5&offset=0>; rel="first", </announcements?max=5&offset=0>; rel="last""#)
                #expect(try await client.send(.get, "/announcements/3", as: caller).status == .notFound)
                #expect(try await client.send(.get, "/announcements/3", version: "1.0", as: caller).status == .notFound)
            }
            let full = try await client.send(.get, "/announcements?max=100", as: .otherReader)
            #expect(try ids(full) == [1, 2, 4, 5, 6])
        }
    }

    @Test("the named reader, editors and admins see it; readers appear only in 2.0 details for editors and admins", arguments: TestStorage.all)
    func visible(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            try await restrictThree(client)

            let reader = try await client.send(.get, "/announcements/3", as: .reader)
            let editor = try await client.send(.get, "/announcements/3", as: .editor)
            let admin = try await client.send(.get, "/announcements", as: .admin)
            let editorV1 = try await client.send(.get, "/announcements/3", version: "1.0", as: .editor)
            let readerList = try await client.send(.get, "/announcements", as: .reader)

            #expect(reader.status == .ok)
            #expect(try reader.object()["readers"] == nil)
            #expect(try editor.object()["readers"] as? [Int] == [3])
            #expect(try Set(editorV1.object().keys) == ["id", "title", "body"])
            #expect(admin.headers[.total] == "6")
            #expect(readerList.headers[.total] == "6")
            let open = try await client.send(.get, "/announcements/2", as: .editor)
            #expect(try open.object()["readers"] is NSNull)
        }
    }

    @Test("writes to a hidden announcement answer 404, not 403, and ETag probing reveals nothing")
    func noProbing() async throws {
        try await withTestServer { _, client in
            let etag = try #require(try await restrictThree(client))

            for method in [HTTPRequest.Method.put, .patch, .delete] {
                let response = try await client.send(method, "/announcements/3", json: #"{"title":"x"}"#, as: .otherReader)
                #expect(response.status == .notFound, "\(method)")
            }
            let probe = try await client.send(.get, "/announcements/3", headers: [.ifNoneMatch: etag], as: .otherReader)
            let star = try await client.send(.get, "/announcements/3", headers: [.ifNoneMatch: "*"], as: .anonymous)
            #expect(probe.status == .notFound)
            #expect(star.status == .notFound)
        }
    }

    @Test("writing needs an editor: 401 without a token, 403 for a reader on a visible announcement")
    func writeRoles() async throws {
        try await withTestServer { _, client in
            let anonymous = try await client.send(.post, "/announcements", json: #"{"title":"x"}"#, as: .anonymous)
            let reader = try await client.send(.post, "/announcements", json: #"{"title":"x"}"#, as: .reader)
            let readerPatch = try await client.send(.patch, "/announcements/2", json: #"{"title":"x"}"#, as: .reader)
            let admin = try await client.send(.post, "/announcements", json: #"{"title":"x"}"#, as: .admin)

            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(reader.status == .forbidden)
            #expect(readerPatch.status == .forbidden)
            #expect(admin.status == .created)
            #expect(try await client.send(.get, "/announcements").headers[.total] == "7")
        }
    }

    @Test("readers must name existing users; null opens the announcement to everyone; PUT without readers keeps them")
    func readerRules() async throws {
        try await withTestServer { _, client in
            try await restrictThree(client)

            let unknown = try await client.send(.patch, "/announcements/3", json: #"{"readers":[3,99]}"#)
            let wrongShape = try await client.send(.patch, "/announcements/3", json: #"{"readers":"all"}"#)
            let oldClientPut = try await client.send(.put, "/announcements/3", version: "1.0", json: #"{"title":"Edited by an old app"}"#)
            let stillHidden = try await client.send(.get, "/announcements/3", as: .anonymous)
            let opened = try await client.send(.patch, "/announcements/3", json: #"{"readers":null}"#)
            let nowVisible = try await client.send(.get, "/announcements/3", as: .anonymous)

            #expect(unknown.status == .unprocessableContent)
            #expect(wrongShape.status == .unprocessableContent)
            #expect(oldClientPut.status == .ok)
            #expect(stillHidden.status == .notFound)
            #expect(opened.status == .ok)
            #expect(nowVisible.status == .ok)
        }
    }

    @Test("with anonymous reading off, every route but /login, /health and /openapi.json needs a token")
    func anonymousReadOff() async throws {
        try await withTestServer(configure: { $0.allowsAnonymousReading = false }) { _, client in
            for path in ["/announcements", "/announcements/2", "/users/me"] {
                let response = try await client.send(.get, path, as: .anonymous)
                #expect(response.status == .unauthorized, "\(path)")
            }
            #expect(try await client.send(.get, "/announcements", as: .reader).status == .ok)
            #expect(try await client.send(.get, "/health", as: .anonymous).status == .ok)
            #expect(try await client.send(.get, "/openapi.json", as: .anonymous).status == .ok)
            let login = try await client.send(.post, "/login", json: #"{"username":"reader","password":"correct horse battery"}"#, as: .anonymous)
            #expect(login.status == .ok)
        }
    }

    @Test("deleting a user removes them from reader lists and ends their sessions")
    func deleteUser() async throws {
        try await withTestServer { _, client in
            try await restrictThree(client)
            _ = try await client.send(.get, "/announcements/3", as: .editor)

            let deleted = try await client.send(.delete, "/users/3", as: .admin)
            let token = try await client.send(.get, "/users/me", as: .reader)
            let editorView = try await client.send(.get, "/announcements/3", as: .editor)

            #expect(deleted.status == .noContent)
            #expect(token.status == .unauthorized)
            #expect(try editorView.object()["readers"] as? [Int] == [])
        }
    }
}
