import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import Testing
@testable import IntranetServer

/// Two instances on one PostgreSQL database with the real clock: a publication and an expiry,
/// with no write at their instants, reach every read path of both instances within a second,
/// each instance by its own clock.
@Suite("Publishing on two PostgreSQL instances", .enabled(if: TestStorage.postgresURL != nil, "needs INTRANET_TEST_POSTGRES_URL"))
struct PublishingSharedDatabaseTests {
    typealias Instance = ServerInstance

    @Test("a post made through one with publishAt 1.5 s ahead appears on both within 1 s of publishAt, and leaves both within 1 s of expiresAt, with no write")
    func publicationAndExpiryOnBoth() async throws {
        try await withTwoInstances { one, two in
            let publishAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.up) / 1000 + 1.5)
            let expiresAt = publishAt.addingTimeInterval(3)
            let id = try await one.client.createAnnouncement(Body.object([
                "title": Body.string("Lights out at noon"), "publishAt": Body.string(rfc3339(publishAt)),
                "expiresAt": Body.string(rfc3339(expiresAt)),
            ]))
            try await waitUntil("two knows the scheduled post") {
                (try? await two.client.send(.get, "/announcements?status=scheduled", as: .editor).ids()) == [id]
            }
            let paths = Self.paths(id)
            for instance in [one, two] { try await warm(paths, on: instance) }
            #expect(Date() < publishAt, "the caches were warmed before publishAt")
            try await expectChange(paths, on: [one, two], id: id, shown: true, at: publishAt)
            for instance in [one, two] {
                #expect(try await instance.client.send(.get, "/announcements").headers[.total] == "7", "\(instance.name)")
            }

            for instance in [one, two] { try await warm(paths, on: instance) }
            #expect(Date() < expiresAt, "the caches were warmed before expiresAt")
            try await expectChange(paths, on: [one, two], id: id, shown: false, at: expiresAt)
            for instance in [one, two] {
                #expect(try await instance.client.send(.get, "/announcements").headers[.total] == "6", "\(instance.name)")
                #expect(try await instance.client.send(.get, "/announcements?status=expired", as: .editor).ids() == [id], "\(instance.name)")
            }
        }
    }

    static func paths(_ id: Int) -> [VisibilityProbe] {
        let spearal: HTTPFields = [.accept: "application/spearal"]
        return [
            VisibilityProbe(description: "list signed out", kind: .list, uri: "/announcements"),
            VisibilityProbe(description: "list 2.0 signed out", kind: .list, uri: "/announcements", version: "2.0"),
            VisibilityProbe(description: "list 1.0 as reader", kind: .list, uri: "/announcements", version: "1.0", caller: .reader),
            VisibilityProbe(description: "list in Spearal", kind: .spearalList, uri: "/announcements", headers: spearal),
            VisibilityProbe(description: "detail signed out", kind: .detail, uri: "/announcements/\(id)"),
            VisibilityProbe(description: "detail as reader", kind: .detail, uri: "/announcements/\(id)", caller: .reader),
            VisibilityProbe(description: "web home signed out", kind: .listPage, uri: "/"),
            VisibilityProbe(description: "web page as reader", kind: .detailPage, uri: "/announcements/\(id)", caller: .reader),
        ]
    }

    /// Reads every path of every instance, round after round, until a round begun after
    /// `instant` finds all in the new state: none may show it before `instant` (a read that
    /// ended before it), and none may still show the old one in a read begun a second after.
    private func expectChange(_ paths: [VisibilityProbe], on instances: [Instance], id: Int, shown: Bool, at instant: Date) async throws {
        let bound = instant.addingTimeInterval(1)
        while true {
            let roundBegan = Date()
            var allNew = true
            for instance in instances {
                for path in paths {
                    let began = Date()
                    let answer = try await path.read(instance.client)
                    let ended = Date()
                    let isNew = try path.shows(answer, id: id) == shown
                    if isNew, ended < instant {
                        Issue.record("\(instance.name), \(path): the new state \(instant.timeIntervalSince(ended)) s before the instant")
                    }
                    if !isNew {
                        allNew = false
                        try #require(began <= bound, "\(instance.name), \(path): still the old state \(began.timeIntervalSince(instant)) s after the instant")
                    }
                }
            }
            if allNew, roundBegan >= instant { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Reads each path twice on `instance`, so that the next read of it comes from memory.
    private func warm(_ paths: [VisibilityProbe], on instance: Instance) async throws {
        for path in paths {
            for _ in 0..<2 { _ = try await path.read(instance.client) }
        }
    }

    /// Runs `body` with two live server instances sharing one fresh PostgreSQL schema
    /// (``withTwoPostgresInstances(_:)``).
    private func withTwoInstances(_ body: @Sendable (Instance, Instance) async throws -> Void) async throws {
        try await withTwoPostgresInstances(body)
    }
}
