import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// Two instances on one PostgreSQL database: a file uploaded through one is served by the
/// other, to the same readers only, and the same content uploaded through both is stored once.
@Suite("Attachments on two PostgreSQL instances", .enabled(if: TestStorage.postgresURL != nil, "needs INTRANET_TEST_POSTGRES_URL"))
struct AttachmentSharedDatabaseTests {
    @Test("uploaded on one, listed, served and ranged by the other; a restricted post's file stays 404 to others on both; removal reaches both")
    func uploadedOnOneServedByTheOther() async throws {
        try await withTwoInstances { one, two in
            let id = try await one.client.createAnnouncement(#"{"title":"Canteen"}"#)
            let restricted = try await one.client.createAnnouncement(#"{"title":"Board","readers":[\#(TestUser.otherReader.id)]}"#)
            let photo = try ImageFixture.data("gps.jpg")
            // Two's cache holds the empty list before the upload.
            #expect(try await two.client.read("/announcements/\(id)/attachments").objects().isEmpty)
            let description = try await one.client.attach(photo, name: "menu.jpg", to: id)
            let url = try #require(description["url"] as? String)
            try await waitUntil("two lists the new attachment") {
                (try? await two.client.read("/announcements/\(id)/attachments").objects().count) == 1
            }
            let fromOne = try await one.client.read(url)
            let fromTwo = try await two.client.read(url)
            #expect(fromTwo.status == .ok && Data(buffer: fromTwo.body) == Data(buffer: fromOne.body))
            #expect(fromTwo.headers[.eTag] == fromOne.headers[.eTag])
            let ranged = try await two.client.read(url, headers: [.range: "bytes=0-3"])
            #expect(ranged.status == .partialContent && Data(buffer: ranged.body) == Data(buffer: fromOne.body).prefix(4))

            let secret = try await two.client.attach(photo, name: "secret.jpg", to: restricted)
            let secretURL = try #require(secret["url"] as? String)
            let counts = try await StorageCounts.read(one.server)
            #expect(counts.files == 2, "the same photo through the other instance is stored once (full size and one variant)")
            for instance in [one, two] {
                #expect(try await instance.client.read(secretURL, as: .reader).status == .notFound, "\(instance.name)")
                #expect(try await instance.client.read(secretURL).status == .notFound, "\(instance.name) signed out")
                #expect(try await instance.client.read(secretURL, as: .otherReader).status == .ok, "\(instance.name)")
            }

            let attachmentID = try #require(description["id"] as? Int)
            #expect(try await two.client.send(.delete, "/announcements/\(id)/attachments/\(attachmentID)").status == .noContent)
            try await waitUntil("one no longer serves the removed file") {
                (try? await one.client.read(url).status) == .notFound
            }
        }
    }

    private typealias Instance = ServerInstance

    private func withTwoInstances(_ body: @Sendable (Instance, Instance) async throws -> Void) async throws {
        try await withTwoPostgresInstances(body)
    }
}
