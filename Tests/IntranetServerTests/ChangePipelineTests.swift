import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// Every kind of write travels through the one change pipeline: it drops exactly the cached
/// answers of the domains it changed, and the others are still served from memory.
@Suite("The change pipeline")
struct ChangePipelineTests {
    /// A write through the API, and the domains it must change.
    struct Write: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var changes: ChangeDomains
        var run: @Sendable (any TestClientProtocol) async throws -> Void
    }

    static func expect(_ status: HTTPResponse.Status, _ answer: TestResponse) throws {
        try #require(answer.status == status, "\(answer.status): \(answer.text)")
    }

    static let writes: [Write] = [
        Write(testDescription: "announcement create", changes: .announcements) { client in
            try expect(.created, try await client.send(.post, "/announcements", json: #"{"title":"New"}"#))
        },
        Write(testDescription: "announcement update", changes: .announcements) { client in
            try expect(.ok, try await client.send(.patch, "/announcements/2", json: #"{"title":"Changed"}"#))
        },
        Write(testDescription: "announcement delete", changes: .announcements) { client in
            try expect(.noContent, try await client.send(.delete, "/announcements/3"))
        },
        Write(testDescription: "readers change", changes: .announcements) { client in
            try expect(.ok, try await client.send(.patch, "/announcements/2", json: #"{"readers":[3]}"#))
        },
        Write(testDescription: "person create", changes: .people) { client in
            let body = #"{"name":"New Person","email":"new.person@brightwater.example","jobTitle":"Analyst","department":"Finance","managerId":1}"#
            try expect(.created, try await client.send(.post, "/people", json: body))
        },
        Write(testDescription: "person move", changes: .people) { client in
            try expect(.ok, try await client.send(.patch, "/people/9", json: #"{"managerId":1}"#))
        },
        Write(testDescription: "person delete", changes: .people) { client in
            let found = try await client.send(.get, "/people?q=ivo%20petrov", as: .anonymous).objects()
            let receptionist = try #require(found.first?["id"] as? Int)  // no one reports to him
            try expect(.noContent, try await client.send(.delete, "/people/\(receptionist)"))
        },
        Write(testDescription: "account role change", changes: .accounts) { client in
            try expect(.ok, try await client.send(.patch, "/users/\(TestUser.otherReader.id)", json: #"{"role":"editor"}"#, as: .admin))
        },
        Write(testDescription: "logout", changes: .accounts) { client in
            let login = try await client.send(
                .post, "/login", json: #"{"username":"otherReader","password":"\#(TestUser.password)"}"#, as: .anonymous)
            try expect(.ok, login)
            let token = try #require(try login.object()["token"] as? String)
            try expect(.noContent, try await client.send(.post, "/logout", headers: [.authorization: "Bearer \(token)"], as: .anonymous))
        },
        Write(testDescription: "account delete", changes: [.accounts, .announcements]) { client in
            try expect(.noContent, try await client.send(.delete, "/users/\(TestUser.otherReader.id)", as: .admin))
        },
        Write(testDescription: "import", changes: .announcements) { client in
            let file = try WordPressImportTests.fixture("harbour-2024.xml")
            try expect(.ok, try await WordPressImportTests.post(file, client: client))
        },
    ]

    /// Reads that fill the cache with answers of every domain: signed out and signed in (an
    /// early answer made for a session depends on accounts too), API and web pages.
    static func warm(_ client: any TestClientProtocol) async throws {
        let html: HTTPFields = [.accept: "text/html"]
        for _ in 0..<2 {
            for (path, headers) in [("/announcements/2", [:]), ("/announcements", [:]), ("/", html), ("/people/3", [:]), ("/org", [:]), ("/people", html)] as [(String, HTTPFields)] {
                _ = try await client.send(.get, path, headers: headers, as: .anonymous)
            }
            for path in ["/announcements/2", "/people/3"] {
                _ = try await client.send(.get, path, as: .reader)
            }
        }
    }

    @Test("each kind of write drops the cached answers of the domains it changed, and only those", arguments: TestStorage.all, writes)
    func writeDropsItsDomains(storage: TestStorage, write: Write) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            // On PostgreSQL the change feed lets go of everything as it goes live.
            while !server.cache.trust.isTrusted { try await Task.sleep(for: .milliseconds(10)) }
            try await Self.warm(client)
            await server.peopleSearch.refresh()
            let before = server.cache.entriesByDependency
            for domains in [ChangeDomains.announcements, .people] {
                #expect((before[domains] ?? 0) > 0, "warmed \(domains)")
            }
            // Signed-in answers are kept per view, not per session: none depends on accounts.
            #expect(before.keys.allSatisfy { !$0.contains(.accounts) })
            let peopleSearchWasReady = server.peopleSearch.isReady
            #expect(peopleSearchWasReady)

            try await write.run(client)

            let after = server.cache.entriesByDependency
            for (domains, count) in before {
                if domains.isDisjoint(with: write.changes) {
                    #expect(after[domains] == count, "answers depending on \(domains) stay")
                } else {
                    #expect(after[domains] == nil, "answers depending on \(domains) are gone")
                }
            }
            #expect(server.peopleSearch.isReady == !write.changes.contains(.people), "the people search snapshot goes only with people")
        }
    }
}

extension ChangePipelineTests {
    /// A request that exercises one write route, and what it must change.
    struct RouteWrite: Sendable {
        var changes: ChangeDomains
        var run: @Sendable (any TestClientProtocol) async throws -> Void
    }

    /// One successful request per write route of the API, in an order in which each succeeds.
    /// Signing in, reserving an import's progress id and making or revoking a feed token write
    /// nothing anything remembered depends on, so they change no domain.
    static let routeWrites: KeyValuePairs<String, RouteWrite> = [
        "POST /announcements": RouteWrite(changes: .announcements) { client in
            // Asking for acknowledgements, for the acknowledgement below (the seed holds six).
            let created = try await client.send(.post, "/announcements", json: #"{"title":"New","acknowledgement":{"required":true}}"#)
            try expect(.created, created)
            try #require(try created.object()["id"] as? Int == 7)
        },
        "PUT /announcements/{id}/acknowledgement": RouteWrite(changes: .acknowledgements) { client in
            try expect(.ok, try await client.send(.put, "/announcements/7/acknowledgement", as: .reader))
        },
        "PUT /announcements/{id}": RouteWrite(changes: .announcements) { client in
            try expect(.ok, try await client.send(.put, "/announcements/2", json: #"{"title":"Replaced"}"#))
        },
        // Attachments change their announcement (its revision, its detail).
        "POST /announcements/{id}/attachments": RouteWrite(changes: .announcements) { client in
            try expect(.created, try await client.upload(Data("%PDF-1.4 minutes".utf8), name: "minutes.pdf", to: 7))
        },
        "PATCH /announcements/{id}/attachments/{attachmentId}": RouteWrite(changes: .announcements) { client in
            try expect(.ok, try await client.send(.patch, "/announcements/7/attachments/1", json: #"{"name":"Minutes.pdf"}"#))
        },
        "DELETE /announcements/{id}/attachments/{attachmentId}": RouteWrite(changes: .announcements) { client in
            try expect(.noContent, try await client.send(.delete, "/announcements/7/attachments/1"))
        },
        "PATCH /announcements/{id}": RouteWrite(changes: .announcements, run: writes[1].run),
        "DELETE /announcements/{id}": RouteWrite(changes: .announcements, run: writes[2].run),
        "POST /people": RouteWrite(changes: .people, run: writes[4].run),
        "PUT /people/{id}": RouteWrite(changes: .people) { client in
            let body = #"{"name":"Zoë Lefèvre","email":"zoe.lefevre@brightwater.example","jobTitle":"Head of IT","department":"IT","managerId":1}"#
            try expect(.ok, try await client.send(.put, "/people/3", json: body))
        },
        "PATCH /people/{id}": RouteWrite(changes: .people, run: writes[5].run),
        "DELETE /people/{id}": RouteWrite(changes: .people, run: writes[6].run),
        "POST /users": RouteWrite(changes: .accounts) { client in
            let body = #"{"username":"newcomer","password":"a long enough password","role":"reader"}"#
            try expect(.created, try await client.send(.post, "/users", json: body, as: .admin))
        },
        "PATCH /users/{id}": RouteWrite(changes: .accounts, run: writes[7].run),
        "POST /logout": RouteWrite(changes: .accounts) { client in
            try expect(.noContent, try await client.send(.post, "/logout", as: .otherReader))
        },
        "POST /login": RouteWrite(changes: []) { client in
            try expect(.ok, try await client.send(.post, "/login", json: #"{"username":"reader","password":"\#(TestUser.password)"}"#, as: .anonymous))
        },
        "DELETE /users/{id}": RouteWrite(changes: [.accounts, .announcements], run: writes[9].run),
        "POST /imports/wordpress": RouteWrite(changes: .announcements, run: writes[10].run),
        "POST /imports/progress": RouteWrite(changes: []) { client in
            try expect(.created, try await client.send(.post, "/imports/progress", as: .admin))
        },
        // A feed token is read from the database on every feed request: nothing remembers it.
        "POST /users/me/feed-token": RouteWrite(changes: []) { client in
            try expect(.created, try await client.send(.post, "/users/me/feed-token", as: .reader))
        },
        "DELETE /users/me/feed-token": RouteWrite(changes: []) { client in
            try expect(.noContent, try await client.send(.delete, "/users/me/feed-token", as: .reader))
        },
    ]

    @Test("every write route of the API reaches the pipeline with the domains it changed (a new write route must be added here)")
    func everyWriteRouteUsesThePipeline() async throws {
        try await withTestServer { server, client in
            let writeRoutes = server.routes.filter { ![.get, .head, .options].contains($0.method) }.map { "\($0.method.rawValue) \($0.path)" }
            #expect(Set(writeRoutes) == Set(Self.routeWrites.map(\.key)), "the router's write routes and this test's list differ")
            for (route, write) in Self.routeWrites {
                let before = server.changes.generations
                try await write.run(client)
                let after = server.changes.generations
                for domain in ChangeDomain.allCases {
                    let moved = after[domain] != before[domain]
                    #expect(moved == write.changes.contains(ChangeDomains(domain)), "\(route): \(domain) \(moved ? "moved" : "did not move")")
                }
            }
        }
    }
}

extension ChangePipelineTests {
    @Test("subscribers get every change once, numbered in order, with its domains and what it touched")
    func subscribersSeeEveryChange() async throws {
        try await withTestServer { server, client in
            var changes = server.changes.changes().makeAsyncIterator()
            let created = try await client.send(.post, "/announcements", json: #"{"title":"Heard"}"#).object()
            let id = try #require(created["id"] as? Int)
            try Self.expect(.ok, try await client.send(.patch, "/people/9", json: #"{"location":"Desk 4"}"#))
            try Self.expect(.noContent, try await client.send(.delete, "/announcements/\(id)"))
            let first = try #require(await changes.next())
            let second = try #require(await changes.next())
            let third = try #require(await changes.next())
            #expect(first.domains == .announcements && first.subjects == [.announcement(id: id, .created)] && first.origin == .local)
            #expect(second.domains == .people && second.subjects == [.person(id: 9, .changed)])
            #expect(third.subjects == [.announcement(id: id, .deleted)])
            #expect([first, second, third].map(\.sequence) == [first.sequence, first.sequence + 1, first.sequence + 2])
        }
    }

    @Test("revisions this instance's own writes made never count as another's, in whatever order they are noted; another's write between them does")
    func ownRevisionsAreKnown() async {
        let changes = ChangePipeline()
        var stream = changes.changes().makeAsyncIterator()
        changes.start(from: [.accounts: 10])
        changes.noteOwn([.accounts: 12])
        changes.noteOwn([.accounts: 11])
        changes.catchUp(with: [.accounts: 12])  // both its own: nothing happened elsewhere
        changes.noteOwn([.accounts: 14])
        changes.catchUp(with: [.accounts: 14])  // 13 was another's
        let change = await stream.next()
        #expect(change?.domains == .accounts && change?.origin == .remote && change?.sequence == 1)
        changes.catchUp(with: [.accounts: 14])
        changes.committed(Change(domains: .people))
        #expect(await stream.next()?.domains == .people)  // nothing in between
    }

    @Test("concurrent writes reach a subscriber in sequence order, each once")
    func concurrentChangesInOrder() async throws {
        let changes = ChangePipeline()
        let stream = changes.changes()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { changes.committed(Change(domains: index.isMultiple(of: 2) ? .announcements : .people)) }
            }
        }
        var sequences: [UInt64] = []
        for await change in stream {
            sequences.append(change.sequence)
            if sequences.count == 200 { break }
        }
        #expect(sequences == Array(1...200))
        #expect(changes.generations[.announcements] == 100 && changes.generations[.people] == 100 && changes.generations[.accounts] == 0)
    }
}
