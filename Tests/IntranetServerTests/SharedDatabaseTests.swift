import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import SQLKit
import Testing
@testable import IntranetServer

#if canImport(Glibc)
import Glibc
#endif

/// Two instances on one PostgreSQL database, each test against a fresh schema: writes, people,
/// restricted posts, sessions, the change feed's failures and the pipeline's domains all cross
/// from one instance to the other within the staleness bound. One piece, past 300 lines: every
/// test shares the two-instance harness at the end of the file.
@Suite("Several server instances on one PostgreSQL database", .enabled(if: TestStorage.postgresURL != nil, "needs INTRANET_TEST_POSTGRES_URL"))
struct SharedDatabaseTests {
    /// One way of reading through instance two; each is read twice before a change so that the
    /// second read comes from memory (the route cache, or the event loop's early answers).
    struct ReadPath: Sendable, CustomStringConvertible {
        var description: String
        var uri: String
        var version: String
        var caller: Caller = .anonymous
        var headers: HTTPFields = [:]
    }

    static let detailPaths: [ReadPath] = [
        ReadPath(description: "detail signed out, 2.0", uri: "/announcements/2", version: "2.0"),
        ReadPath(description: "detail signed out, 1.0", uri: "/announcements/2", version: "1.0"),
        ReadPath(description: "detail signed in, 2.0", uri: "/announcements/2", version: "2.0", caller: .reader),
        ReadPath(description: "detail signed in as an editor, 1.0", uri: "/announcements/2", version: "1.0", caller: .editor),
        ReadPath(
            description: "detail in Spearal", uri: "/announcements/2", version: "2.0",
            headers: [.accept: MediaType.spearal]),
    ]

    static let listPaths: [ReadPath] = [
        ReadPath(description: "list signed out, 2.0", uri: "/announcements", version: "2.0"),
        ReadPath(description: "list signed out, 1.0", uri: "/announcements", version: "1.0"),
        ReadPath(description: "list signed in, 2.0", uri: "/announcements", version: "2.0", caller: .reader),
        ReadPath(description: "list signed in as an editor, 1.0", uri: "/announcements", version: "1.0", caller: .editor),
    ]

    @Test("every read path of instance two sees an update, a create and a delete made through instance one within the staleness bound")
    func writesReachEveryReadPath() async throws {
        try await withTwoInstances { one, two in
            let paths = Self.detailPaths + Self.listPaths
            let hitsBefore = two.server.cache.publicAnswerHits
            try await warm(paths, on: two)
            #expect(two.server.cache.publicAnswerHits > hitsBefore, "signed-out reads are answered early on PostgreSQL too")

            let patched = try await one.client.send(.patch, "/announcements/2", json: #"{"title":"Changed on one"}"#)
            #expect(patched.status == .ok)
            try await expectSeen(paths, on: two, since: .now, bound: two.bound) { _, answer in
                answer.text.contains("Changed on one")
            }

            // Conditional reads: a tag read before the change no longer matches.
            let tag = try #require(try await two.client.send(.get, "/announcements/2", version: "2.0").headers[.eTag])
            #expect(try await two.client.send(.get, "/announcements/2", version: "2.0", headers: [.ifNoneMatch: tag]).status == .notModified)
            try await warm(Self.listPaths, on: two)
            let created = try await one.client.send(.post, "/announcements", json: #"{"title":"Made on one"}"#)
            #expect(created.status == .created)
            try await one.client.send(.patch, "/announcements/2", json: #"{"body":"<p>Again</p>"}"#).expect(.ok)
            let since = ContinuousClock.now
            try await expectSeen(Self.listPaths, on: two, since: since, bound: two.bound) { _, answer in
                answer.text.contains("Made on one")
            }
            try await expectSeen(
                [ReadPath(description: "conditional detail", uri: "/announcements/2", version: "2.0", headers: [.ifNoneMatch: tag])],
                on: two, since: since, bound: two.bound
            ) { _, answer in
                answer.status == .ok && answer.text.contains("Again")
            }

            try await warm(paths, on: two)
            try await one.client.send(.delete, "/announcements/2").expect(.noContent)
            try await expectSeen(paths, on: two, since: .now, bound: two.bound) { path, answer in
                path.uri == "/announcements/2" ? answer.status == .notFound : !answer.text.contains("Changed on one")
            }
        }
    }

    @Test("people changed through one reach every people read of two within the bound: detail, search, chain and the org chart")
    func peopleWritesReachTheOtherInstance() async throws {
        try await withTwoInstances { one, two in
            let paths = [
                ReadPath(description: "person", uri: "/people/22", version: "2.0"),
                ReadPath(description: "person in Spearal", uri: "/people/22", version: "1.0", headers: [.accept: MediaType.spearal]),
                ReadPath(description: "search signed in", uri: "/people?q=vries", version: "2.0", caller: .reader),
                ReadPath(description: "search for the new name", uri: "/people?q=van+vries", version: "2.0"),
                ReadPath(description: "chain", uri: "/people/31/chain", version: "2.0"),
                ReadPath(description: "org chart", uri: "/org", version: "2.0"),
            ]
            try await warm(paths, on: two)
            await two.server.peopleSearch.refresh()
            let answered = two.server.peopleSearch.answers
            #expect(try await two.client.send(.get, "/people?q=vries&fresh").headers[.total] == "1")
            #expect(two.server.peopleSearch.answers == answered + 1, "two searched in memory")
            #expect(try await one.client.send(.patch, "/people/22", json: #"{"name":"Pieter van Vries"}"#).status == .ok)
            try await expectSeen(paths, on: two, since: .now, bound: two.bound) { _, answer in
                answer.text.contains("Pieter van Vries")
            }
        }
    }

    @Test("each instance reads the directory into memory at start, once its change feed is live, before any search; after a write, at the next search")
    func peopleSearchReadAtStart() async throws {
        try await withTwoInstances { one, two in
            try await waitUntil("both hold the directory") { one.server.peopleSearch.isReady && two.server.peopleSearch.isReady }
            #expect(try await one.client.send(.patch, "/people/22", json: #"{"jobTitle":"Principal Engineer"}"#).status == .ok)
            #expect(!one.server.peopleSearch.isReady, "the write set it aside")
            #expect(try await two.client.send(.get, "/people?q=principal").headers[.total] == "1")
            try await waitUntil("two, which searched, holds it again") { two.server.peopleSearch.isReady }
            #expect(!one.server.peopleSearch.isReady, "one, which did not, has not read it again")
            let answered = two.server.peopleSearch.answers
            #expect(try await two.client.send(.get, "/people?q=principal&again").headers[.total] == "1")
            #expect(two.server.peopleSearch.answers == answered + 1)
        }
    }

    @Test("a restricted announcement made through one reaches its reader through two, and never anyone else")
    func restrictedAcrossInstances() async throws {
        try await withTwoInstances { one, two in
            let secret = ReadPath(description: "restricted detail", uri: "/announcements/7", version: "2.0")
            try await warm([secret, ReadPath(description: "reader's list", uri: "/announcements", version: "2.0", caller: .reader)], on: two)
            let created = try await one.client.send(
                .post, "/announcements", json: #"{"title":"Only for the reader","readers":[3]}"#)
            #expect(created.status == .created)
            #expect(created.headers[.location] == "/announcements/7")

            var forReader = secret
            forReader.caller = .reader
            try await expectSeen([forReader], on: two, since: .now, bound: two.bound) { _, answer in
                answer.status == .ok
            }
            for caller in [Caller.anonymous, .otherReader, .anonymous, .otherReader] {
                let answer = try await two.client.send(.get, "/announcements/7", as: caller)
                let list = try await two.client.send(.get, "/announcements", as: caller)
                #expect(answer.status == .notFound)
                #expect(!list.text.contains("Only for the reader"))
            }
        }
    }

    @Test("an acknowledgement given through one reaches the reader's detail, pending list and the reach report of two within the bound")
    func acknowledgementAcrossInstances() async throws {
        try await withTwoInstances { one, two in
            let created = try await one.client.send(.post, "/announcements", json: #"{"title":"Fire drill","acknowledgement":{"required":true}}"#)
            #expect(created.headers[.location] == "/announcements/7")
            let detail = ReadPath(description: "the reader's detail", uri: "/announcements/7", version: "3.0", caller: .reader)
            let pending = ReadPath(description: "the reader's pending list", uri: "/announcements?pending=true", version: "3.0", caller: .reader)
            try await expectSeen([pending], on: two, since: .now, bound: .seconds(15)) { _, answer in answer.text.contains("Fire drill") }
            try await warm([detail, pending], on: two)
            _ = try await two.client.send(.get, "/announcements/7/reach", as: .editor)
            let given = try await one.client.send(.put, "/announcements/7/acknowledgement", as: .reader)
            #expect(given.status == .ok)
            try await expectSeen([detail, pending], on: two, since: .now, bound: two.bound) { path, answer in
                path.uri.contains("pending") ? !answer.text.contains("Fire drill") : answer.text.contains(#""acknowledgedAt":"20"#)
            }
            let reach = try await two.client.send(.get, "/announcements/7/reach", as: .editor).object()
            #expect(reach["acknowledged"] as? Int == 1)
            let other = try await two.client.send(.get, "/announcements/7", as: .otherReader).object()
            #expect((other["acknowledgement"] as? [String: Any])?["acknowledgedAt"] is NSNull, "one reader's acknowledgement only")
        }
    }

    @Test("a logout and a role change made through one count on two within the bound, forgetting that account's sessions only; the lockout count is shared")
    func sessionsAcrossInstances() async throws {
        try await withTwoInstances { one, two in
            let login = try await one.client.send(.post, "/login", json: #"{"username":"reader","password":"correct horse battery"}"#, as: .anonymous)
            let token = try #require(try login.object()["token"] as? String)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            let me = ReadPath(description: "/users/me with the new token", uri: "/users/me", version: "2.0", headers: bearer)
            let editorMe = ReadPath(description: "/users/me as the editor", uri: "/users/me", version: "2.0", caller: .editor)
            try await warm([me, editorMe], on: two)

            try await one.client.send(.post, "/logout", headers: bearer).expect(.noContent)
            try await expectSeen([me], on: two, since: .now, bound: two.bound) { _, answer in
                answer.status == .unauthorized
            }
            // The feed named the account: two forgot its sessions only, the editor's stays.
            let editorHash = SessionToken.hash(TestUser.editor.token)
            #expect(two.server.sessions.rememberedSession(tokenHash: editorHash, now: Date()) != nil)

            try await one.client.send(.patch, "/users/2", json: #"{"role":"reader"}"#, as: .admin).expect(.ok)
            try await expectSeen([editorMe], on: two, since: .now, bound: two.bound) { _, answer in
                (try? answer.object()["role"] as? String) == "reader"
            }
            #expect(try await two.client.send(.post, "/announcements", json: #"{"title":"No longer allowed"}"#).status == .forbidden)

            for client in [one.client, two.client, one.client, two.client, one.client] {
                _ = try await client.send(.post, "/login", json: #"{"username":"otherReader","password":"wrong wrong"}"#, as: .anonymous)
            }
            let locked = try await two.client.send(
                .post, "/login", json: #"{"username":"otherReader","password":"correct horse battery"}"#, as: .anonymous)
            #expect(locked.status == .tooManyRequests)
        }
    }

    @Test("when its feed's connection is cut, an instance asks the database, sees writes at once, and the feed comes back")
    func feedConnectionCut() async throws {
        try await withTwoInstances { one, two in
            let path = ReadPath(description: "detail signed out", uri: "/announcements/2", version: "2.0")
            try await warm([path], on: two)
            try await terminateFeedConnection(of: two)
            try await waitUntil("instance two stops trusting its memory") { !two.server.cache.trust.isTrusted }

            try await one.client.send(.patch, "/announcements/2", json: #"{"title":"While the feed was down"}"#).expect(.ok)
            let first = try await two.client.send(.get, "/announcements/2")
            #expect(first.text.contains("While the feed was down"))

            try await waitUntil("the feed is live again") { two.server.cache.trust.isTrusted }
            try await warm([path], on: two)
            try await one.client.send(.patch, "/announcements/2", json: #"{"title":"After it came back"}"#).expect(.ok)
            try await expectSeen([path], on: two, since: .now, bound: two.bound) { _, answer in
                answer.text.contains("After it came back")
            }
        }
    }

    @Test(
        "when its feed goes silent (the backend paused), an instance stops trusting its memory within the bound",
        .enabled(if: TestStorage.postgresIsOnThisMachine, "needs the PostgreSQL server on this machine"))
    func feedGoesSilent() async throws {
        try await withTwoInstances { one, two in
            let paths = [Self.detailPaths[0], Self.listPaths[2]]
            try await warm(paths, on: two)
            let pid = try await feedBackendPID(of: two)
            #expect(kill(pid, SIGSTOP) == 0)
            do {
                try await one.client.send(.patch, "/announcements/2", json: #"{"title":"Unannounced"}"#).expect(.ok)
                try await expectSeen(paths, on: two, since: .now, bound: two.bound) { _, answer in
                    answer.text.contains("Unannounced")
                }
                #expect(!two.server.cache.trust.isTrusted)
            } catch {
                kill(pid, SIGCONT)
                throw error
            }
            kill(pid, SIGCONT)
        }
    }

    // MARK: Helpers

    /// A server instance under test and its client.
    struct Instance: Sendable {
        var server: IntranetServer
        var client: any TestClientProtocol
        var bound: Duration {
            .nanoseconds(server.changeFeed?.stalenessBound.nanoseconds ?? 0)
        }
    }

    @Test(
        "a write through one drops, on two and within the bound, the cached answers of the domains it changed and no others",
        arguments: ChangePipelineTests.writes.indices)
    func otherInstanceDropsOnlyChangedDomains(write index: Int) async throws {
        let write = ChangePipelineTests.writes[index]
        try await withTwoInstances { one, two in
            try await ChangePipelineTests.warm(two.client)
            await two.server.peopleSearch.refresh()
            let before = two.server.cache.entriesByDependency
            #expect(two.server.peopleSearch.isReady)
            let since = ContinuousClock.now
            try await write.run(one.client)
            while two.server.cache.entriesByDependency.keys.contains(where: { !$0.isDisjoint(with: write.changes) }) {
                try #require(ContinuousClock.now - since <= two.bound, "\(write.testDescription): still cached on two after the bound")
                try await Task.sleep(for: .milliseconds(5))
            }
            let after = two.server.cache.entriesByDependency
            for (domains, count) in before where domains.isDisjoint(with: write.changes) {
                #expect(after[domains] == count, "\(write.testDescription): answers depending on \(domains) stay on two")
            }
            #expect(two.server.peopleSearch.isReady == !write.changes.contains(.people))
        }
    }

    /// Runs `body` with two live server instances sharing one fresh PostgreSQL schema, once
    /// both change feeds are live (``withTwoPostgresInstances(_:)``).
    func withTwoInstances(_ body: @Sendable (Instance, Instance) async throws -> Void) async throws {
        try await withTwoPostgresInstances { one, two in
            try await body(Instance(server: one.server, client: one.client), Instance(server: two.server, client: two.client))
        }
    }

    /// Reads each path twice, so the next read of it comes from memory.
    private func warm(_ paths: [ReadPath], on instance: Instance) async throws {
        for path in paths {
            for _ in 0..<2 {
                _ = try await instance.client.send(.get, path.uri, version: path.version, headers: path.headers, as: path.caller)
            }
        }
    }

    /// Reads every path through `instance` until `isNew` holds for each, failing for any read
    /// that began more than `bound` after `since` and still answered the old state.
    private func expectSeen(
        _ paths: [ReadPath], on instance: Instance, since: ContinuousClock.Instant, bound: Duration,
        isNew: @Sendable (ReadPath, TestResponse) -> Bool
    ) async throws {
        var waiting = paths
        while !waiting.isEmpty {
            let began = ContinuousClock.now
            var stale: [ReadPath] = []
            for path in waiting {
                let answer = try await instance.client.send(.get, path.uri, version: path.version, headers: path.headers, as: path.caller)
                if !isNew(path, answer) { stale.append(path) }
            }
            if !stale.isEmpty {
                let late = began - since
                try #require(late <= bound, "still stale \(late) after the change (bound \(bound)): \(stale)")
                try await Task.sleep(for: .milliseconds(5))
            }
            waiting = stale
        }
    }

    /// The process id of the PostgreSQL backend serving `instance`'s change feed.
    private func feedBackendPID(of instance: Instance) async throws -> Int32 {
        let feed = try #require(instance.server.changeFeed)
        let sql = try #require(instance.server.database.database as? any SQLDatabase)
        let row = try await sql.raw(
            "SELECT pid FROM pg_stat_activity WHERE application_name = \(bind: "\(ChangeFeed.applicationName) \(feed.instance)")"
        ).first()
        return try #require(row).decode(column: "pid", as: Int32.self)
    }

    private func terminateFeedConnection(of instance: Instance) async throws {
        let pid = try await feedBackendPID(of: instance)
        let sql = try #require(instance.server.database.database as? any SQLDatabase)
        try await sql.raw("SELECT pg_terminate_backend(\(bind: pid))").run()
    }
}

extension TestResponse {
    /// Fails the test unless the answer has `status`.
    func expect(_ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(self.status == status, "\(text)", sourceLocation: sourceLocation)
    }
}
