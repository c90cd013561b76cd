import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("Managing users")
struct UserAdminTests {
    @Test("admins list, create, change and delete users; others get 401 or 403", arguments: TestStorage.all)
    func adminOnly(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let list = try await client.send(.get, "/users", as: .admin)
            let created = try await client.send(.post, "/users", json: #"{"username":"Nadia","displayName":"Nadia Ferreira","role":"editor","password":"long enough"}"#, as: .admin)
            let changed = try await client.send(.patch, "/users/5", json: #"{"role":"reader","displayName":"Nadia F."}"#, as: .admin)
            let byEditor = try await client.send(.get, "/users", as: .editor)
            let byNobody = try await client.send(.get, "/users", as: .anonymous)
            let deleted = try await client.send(.delete, "/users/5", as: .admin)

            #expect(try list.objects().map { $0["username"] as? String } == ["admin", "editor", "reader", "otherReader"])
            #expect(try list.objects().allSatisfy { Set($0.keys) == ["id", "username", "displayName", "role"] })
            #expect(created.status == .created)
            #expect(created.headers[.location] == "/users/5")
            #expect(try changed.object()["role"] as? String == "reader")
            #expect(try changed.object()["displayName"] as? String == "Nadia F.")
            #expect(byEditor.status == .forbidden)
            #expect(byNobody.status == .unauthorized)
            #expect(deleted.status == .noContent)
        }
    }

    @Test("GET /users/{id} shows one account to admins only; an unknown id is 404; /users/me still answers", arguments: TestStorage.all)
    func readOne(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let list = try await client.send(.get, "/users", as: .admin)
            let editorID = try #require(try list.objects().first { $0["username"] as? String == "editor" }?["id"] as? Int)

            let one = try await client.send(.get, "/users/\(editorID)", as: .admin)
            let byEditor = try await client.send(.get, "/users/\(editorID)", as: .editor)
            let unknown = try await client.send(.get, "/users/999", as: .admin)
            let notAnID = try await client.send(.get, "/users/abc", as: .admin)
            let me = try await client.send(.get, "/users/me", as: .editor)

            #expect(one.status == .ok)
            #expect(try one.object()["username"] as? String == "editor")
            #expect(try Set(one.object().keys) == ["id", "username", "displayName", "role"])
            #expect(byEditor.status == .forbidden)
            #expect(unknown.status == .notFound)
            #expect(notAnID.status == .notFound)
            #expect(try me.object()["id"] as? Int == editorID)
        }
    }

    @Test("usernames are unique regardless of case, and bad fields are named")
    func validation() async throws {
        try await withTestServer { _, client in
            let taken = try await client.send(.post, "/users", json: #"{"username":"EDITOR","role":"reader","password":"long enough"}"#, as: .admin)
            let bad = try await client.send(.post, "/users", json: #"{"username":"no spaces","role":"boss","password":"short"}"#, as: .admin)

            #expect(taken.status == .conflict)
            #expect(bad.status == .unprocessableContent)
            let fields = try #require(try bad.object()["errors"] as? [[String: String]]).compactMap { $0["field"] }
            #expect(fields == ["username", "role", "password"])
        }
    }

    @Test("a new password ends the user's sessions at once and the new one works")
    func passwordChange() async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/users/me", as: .reader)
            let changed = try await client.send(.patch, "/users/3", json: #"{"password":"a brand new one"}"#, as: .admin)
            let oldToken = try await client.send(.get, "/users/me", as: .reader)
            let login = try await client.send(.post, "/login", json: #"{"username":"reader","password":"a brand new one"}"#, as: .anonymous)

            #expect(before.status == .ok)
            #expect(changed.status == .ok)
            #expect(oldToken.status == .unauthorized)
            #expect(login.status == .ok)
        }
    }

    @Test("a new role and a deletion count from the user's very next request", arguments: TestStorage.all)
    func roleAndDeletionAtOnce(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let asEditor = try await client.send(.get, "/users/me", as: .editor)
            let demoted = try await client.send(.patch, "/users/2", json: #"{"role":"reader"}"#, as: .admin)
            let writeAfterDemotion = try await client.send(.post, "/announcements", json: #"{"title":"Too late"}"#, as: .editor)
            let asReader = try await client.send(.get, "/users/me", as: .otherReader)
            let deleted = try await client.send(.delete, "/users/4", as: .admin)
            let afterDeletion = try await client.send(.get, "/users/me", as: .otherReader)

            #expect(try asEditor.object()["role"] as? String == "editor")
            #expect(demoted.status == .ok)
            #expect(writeAfterDemotion.status == .forbidden)
            #expect(asReader.status == .ok)
            #expect(deleted.status == .noContent)
            #expect(afterDeletion.status == .unauthorized)
        }
    }

    @Test("the last admin can be neither demoted nor deleted")
    func lastAdmin() async throws {
        try await withTestServer { _, client in
            let demote = try await client.send(.patch, "/users/1", json: #"{"role":"editor"}"#, as: .admin)
            let delete = try await client.send(.delete, "/users/1", as: .admin)

            #expect(demote.status == .conflict)
            #expect(delete.status == .conflict)
            #expect(try await client.send(.get, "/users/me", as: .admin).status == .ok)
        }
    }
}
