import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
@testable import IntranetServer

@Suite("The server on a real socket")
struct LiveServerTests {
    @Test("over a loopback socket the server lists, creates, reads and deletes")
    func roundTrip() async throws {
        try await withTestServer(mode: .live) { _, client in
            let list = try await client.send(.get, "/announcements", version: "1.0")
            let created = try await client.send(.post, "/announcements", json: #"{"title":"Über HTTP","body":"<p>ok</p>"}"#)
            let location = try #require(created.headers[.location])
            let read = try await client.send(.get, location)
            let deleted = try await client.send(.delete, location)

            #expect(list.status == .ok)
            #expect(try list.objects().count == 6)
            #expect(list.headers[.apiVersion] == "1.0")
            #expect(created.status == .created)
            #expect(try read.object()["title"] as? String == "Über HTTP")
            #expect(deleted.status == .noContent)
        }
    }

    @Test("a restart on the same SQLite file keeps the data and does not seed twice; the file is in WAL mode with foreign keys on")
    func restart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("intranet.sqlite").path
        let configure: (inout AppConfiguration) -> Void = { $0.storage = .sqliteFile(path: path) }

        try await withTestServer(mode: .live, configure: configure) { server, client in
            _ = try await client.send(.post, "/announcements", json: #"{"title":"Survives restarts"}"#)
            _ = try await client.send(.delete, "/announcements/1")
            let sql = try #require(server.database.database as? any SQLDatabase)
            let journal = try await sql.raw("PRAGMA journal_mode").first(decodingColumn: "journal_mode", as: String.self)
            let foreignKeys = try await sql.raw("PRAGMA foreign_keys").first(decodingColumn: "foreign_keys", as: Int.self)
            #expect(journal == "wal")
            #expect(foreignKeys == 1)
        }
        try await withTestServer(mode: .live, configure: configure) { _, client in
            let list = try await client.send(.get, "/announcements")

            #expect(list.headers[.total] == "6")
            #expect(try list.objects().compactMap { $0["id"] as? Int } == [2, 3, 4, 5, 6, 7])
            #expect(try await client.send(.get, "/announcements/7").object()["title"] as? String == "Survives restarts")
        }
    }
}
