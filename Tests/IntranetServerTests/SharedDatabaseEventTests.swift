import Foundation
import HTTPTypes
import Testing
@testable import IntranetServer

/// Live streams across two instances on one PostgreSQL database.
extension SharedDatabaseTests {
    @Test("a write through one instance reaches the streams held by the other within the staleness bound, and both number it alike")
    func streamsAcrossInstances() async throws {
        try await withTwoInstances { one, two in
            let streamOnTwo = try await EventStreamClient.open(
                port: try #require(two.client.port), headers: ["Authorization": "Bearer \(TestUser.reader.token)"])
            let streamOnOne = try await EventStreamClient.open(port: try #require(one.client.port))
            _ = try await streamOnTwo.next()
            _ = try await streamOnOne.next()

            let written = ContinuousClock.now
            let created = try await one.client.send(.post, "/announcements", json: #"{"title":"Written through one"}"#)
            let id = try #require(try created.object()["id"] as? Int)
            let seen = try #require(try await streamOnTwo.nextEvent(timeout: .seconds(10)))
            let took = ContinuousClock.now - written
            #expect(seen.event == "announcement.created")
            #expect(seen.subject == id)
            #expect(took <= two.bound, "seen on two after \(took), bound \(two.bound)")
            let onOne = try #require(try await streamOnOne.nextEvent())
            #expect(onOne.id == seen.id, "one log, one numbering")

            // A restricted post made through two reaches its reader on two, and nobody signed out on one.
            _ = try await two.client.send(.post, "/announcements", json: #"{"title":"Reader only","readers":[\#(TestUser.reader.id)]}"#)
            #expect(try await streamOnTwo.nextEvent()?.event == "announcement.created")
            #expect(try await streamOnOne.events(within: .milliseconds(500)).isEmpty)

            // Logging out through one ends the stream held by two.
            let logout = try await one.client.send(.post, "/logout", headers: [.authorization: "Bearer \(TestUser.reader.token)"])
            #expect(logout.status == .noContent)
            let closing = try #require(try await streamOnTwo.nextEvent(timeout: .seconds(10)))
            #expect(closing.event == "closing")
            #expect(closing.object?["reason"] as? String == "signed-out")
            await streamOnTwo.close()
            await streamOnOne.close()
        }
    }
}
