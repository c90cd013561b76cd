import Foundation
import HTTPTypes
import Logging
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import RESTRepository

/// A server of notes behind a mock transport: answers `GET /notes/{id}` and `GET /notes` with
/// ETags and 304s, applies `PUT`, and can be "unplugged".
///
/// (The file is one piece, past 300 lines: the notes server, its client and the store's tests
/// that run against them belong together.)
private actor NotesServer {
    var notes: [Int: String] = [1: "first", 2: "second"]
    var version = 1
    var isDown = false
    var cacheControl: String?

    func unplug() { isDown = true }
    func plugIn() { isDown = false }
    func set(_ id: Int, _ text: String) {
        notes[id] = text
        version += 1
    }
    func setCacheControl(_ value: String?) { cacheControl = value }

    func answer(_ recorded: RecordedRequest) throws -> MockResponse {
        if isDown { throw URLError(.cannotConnectToHost) }
        let request = recorded.request
        let path = request.path?.split(separator: "?").first.map(String.init) ?? "/"
        if request.method == .put, let id = Int(path.split(separator: "/").last ?? "") {
            let text = try JSONDecoder().decode(NoteDraft.self, from: recorded.body ?? Data()).text
            set(id, text)
            return .json(Note(id: id, text: text))
        }
        let body: Data
        let etag: String
        if path == "/notes" {
            body = try JSONEncoder().encode(notes.keys.sorted().map { Note(id: $0, text: notes[$0] ?? "") })
            etag = "\"list-\(version)\""
        } else if let id = Int(path.split(separator: "/").last ?? ""), let text = notes[id] {
            body = try JSONEncoder().encode(Note(id: id, text: text))
            etag = "\"\(id)-\(text.count)-\(version)\""
        } else {
            return .problem(.notFound, title: "Not Found")
        }
        if request.headerFields[.ifNoneMatch] == etag {
            return .status(.notModified, headerFields: [.eTag: etag])
        }
        var fields: HTTPFields = [.eTag: etag, .contentType: "application/json", HTTPField.Name("X-Total")!: "\(notes.count)"]
        if let cacheControl { fields[.cacheControl] = cacheControl }
        return MockResponse(status: .ok, headerFields: fields, body: body)
    }
}

/// A client over the notes server with a store in a new directory.
private struct Fixture {
    let server = NotesServer()
    let transport: MockTransport
    let directory: URL
    let store: ResponseStore
    let logs: RecordingLogHandler.Store
    let user: UserBox
    let policy: StorePolicy

    init(policy: StorePolicy = .networkFirst, maximumBytes: Int = 1 << 20, pageLimit: Int? = nil, directory: URL? = nil) {
        let server = server
        transport = MockTransport { try await server.answer($0) }
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        let (logger, logs) = RecordingLogHandler.logger()
        self.logs = logs
        store = ResponseStore(
            fileURL: self.directory.appendingPathComponent("responses.sqlite"), maximumBytes: maximumBytes,
            logger: logger, pageLimit: pageLimit)
        user = UserBox()
        self.policy = policy
    }

    var client: RESTClient {
        var client = RESTClient(transport: transport)
        let user = user
        client.caching = ResponseCaching(store: store, policy: policy, scope: "http://notes", selection: "v1") {
            await user.name
        }
        return client
    }

    var notes: TagsNotes { TagsNotes(client: client) }

    /// The requests the server saw, as `METHOD path If-None-Match`.
    func sent() async -> [String] {
        await transport.requests.map { recorded in
            let condition = recorded.request.headerFields[.ifNoneMatch] == nil ? "" : " if-none-match"
            return "\(recorded.request.method.rawValue) \(recorded.request.path ?? "")\(condition)"
        }
    }
}

private actor UserBox {
    var name = "anonymous"
    func set(_ value: String) { name = value }
}

/// A readable, updatable notes collection.
private struct TagsNotes: Readable, Updatable {
    typealias ID = Int
    typealias Entity = Note
    typealias Replacement = NoteDraft
    let client: RESTClient
    let path = "/notes"
}

@Suite("Response store: policies, revalidation, invalidation, bounds and damaged files")
struct ResponseStoreTests {
    @Test("network-first keeps the answer, revalidates it with If-None-Match, and a 304 gives the stored body")
    func revalidates() async throws {
        let fixture = Fixture()
        let first = try await fixture.notes.readVersioned(id: 1)
        #expect(first.value == Note(id: 1, text: "first"))
        #expect(first.origin.source == .network)
        let second = try await fixture.notes.readVersioned(id: 1)
        #expect(second.value == Note(id: 1, text: "first"))
        #expect(second.origin.source == .revalidated)
        #expect(second.etag == first.etag)
        #expect(await fixture.sent() == ["GET /notes/1", "GET /notes/1 if-none-match"])
        // A change on the server is a full 200 again.
        await fixture.server.set(1, "changed")
        #expect(try await fixture.notes.read(id: 1).text == "changed")
    }

    @Test("network-first answers from the store when the server cannot be reached, with the answer's age")
    func fallsBackWhenUnreachable() async throws {
        let fixture = Fixture()
        let page = try await fixture.notes.read(page: 1, pageSize: 10)
        await fixture.server.unplug()
        let offline = try await fixture.notes.read(page: 1, pageSize: 10)
        #expect(offline.items == page.items)
        #expect(offline.info.total == 2, "the paging header fields are kept")
        #expect(offline.origin.source == .storeWhileUnreachable)
        #expect(offline.origin.failure?.contains("could not be reached") == true)
        #expect(offline.origin.age() >= 0 && offline.origin.age() < 60)
        // Never read: the transport error itself.
        await #expect {
            try await fixture.notes.read(id: 2)
        } throws: { error in
            guard case RepositoryError.transport = error else { return false }
            return true
        }
    }

    @Test("store-only answers from the store and sends nothing; an answer never read is notStored")
    func storeOnly() async throws {
        let fixture = Fixture(policy: .storeOnly)
        await #expect(throws: RepositoryError.self) { try await fixture.notes.read(id: 1) }
        #expect(await fixture.sent().isEmpty)
        _ = try await StorePolicy.$current.withValue(.networkFirst) { try await fixture.notes.read(id: 1) }
        let stored = try await fixture.notes.readVersioned(id: 1)
        #expect(stored.value.text == "first")
        #expect(stored.origin.source == .store)
        #expect(stored.origin.confirmedAt != nil)
        #expect(await fixture.sent() == ["GET /notes/1"])
        do {
            _ = try await fixture.notes.read(id: 2)
            Issue.record("expected notStored")
        } catch RepositoryError.notStored(let path) {
            #expect(path == "/notes/2")
        }
    }

    @Test("store-first answers from the store at once and revalidates in the background")
    func storeFirst() async throws {
        let fixture = Fixture(policy: .storeFirst)
        #expect(try await fixture.notes.readVersioned(id: 1).origin.source == .network, "nothing stored yet: the server")
        await fixture.server.set(1, "newer")
        let stale = try await fixture.notes.readVersioned(id: 1)
        #expect(stale.value.text == "first")
        #expect(stale.origin.source == .store)
        await fixture.store.waitForRevalidations()
        #expect(await fixture.sent() == ["GET /notes/1", "GET /notes/1 if-none-match"])
        let refreshed = try await fixture.notes.read(id: 1)
        #expect(refreshed.text == "newer", "the background revalidation stored the new answer")
    }

    @Test("network-only never reads the store but keeps it up to date")
    func networkOnly() async throws {
        let fixture = Fixture(policy: .networkOnly)
        _ = try await fixture.notes.read(id: 1)
        _ = try await fixture.notes.read(id: 1)
        #expect(await fixture.sent() == ["GET /notes/1", "GET /notes/1"])
        await fixture.server.unplug()
        await #expect(throws: RepositoryError.self) { try await fixture.notes.read(id: 1) }
        let stored = try await StorePolicy.$current.withValue(.storeOnly) { try await fixture.notes.read(id: 1) }
        #expect(stored.text == "first")
    }

    @Test("a write forgets the written resource and the lists above it, for every user, and nothing else")
    func writesInvalidate() async throws {
        let fixture = Fixture()
        _ = try await fixture.notes.read(id: 1)
        _ = try await fixture.notes.read(id: 2)
        _ = try await fixture.notes.read(page: 1, pageSize: 10)
        await fixture.user.set("user:7")
        _ = try await fixture.notes.read(id: 1)
        #expect(fixture.store.info.entries == 4)
        _ = try await fixture.notes.updateUnconditionally(NoteDraft(text: "edited"), id: 1)
        #expect(fixture.store.info.entries == 1, "/notes/1 for both users and the list are gone; /notes/2 stays")
        await fixture.server.unplug()
        await fixture.user.set("anonymous")
        #expect(try await fixture.notes.read(id: 2).text == "second")
        await #expect(throws: RepositoryError.self) { try await fixture.notes.read(id: 1) }
    }

    @Test("a 404 forgets the stored answer; Cache-Control: no-store is never kept")
    func goneAndNoStore() async throws {
        let fixture = Fixture()
        _ = try await fixture.notes.read(id: 2)
        await fixture.server.set(2, "")
        await fixture.server.removeNote(2)
        await #expect(throws: RepositoryError.self) { try await fixture.notes.read(id: 2) }
        #expect(fixture.store.info.entries == 0)
        await fixture.server.setCacheControl("private, no-store")
        _ = try await fixture.notes.read(id: 1)
        #expect(fixture.store.info.entries == 0)
    }

    @Test("answers are filed per user: one user's answers are never shown to another, and forget(partition:) drops them")
    func usersAreSeparate() async throws {
        let fixture = Fixture()
        await fixture.user.set("user:1")
        _ = try await fixture.notes.read(id: 1)
        await fixture.server.unplug()
        await fixture.user.set("user:2")
        await #expect(throws: RepositoryError.self) { try await fixture.notes.read(id: 1) }
        await fixture.user.set("user:1")
        #expect(try await fixture.notes.read(id: 1).text == "first")
        fixture.store.forget(partition: "user:1")
        await #expect(throws: RepositoryError.self) { try await fixture.notes.read(id: 1) }
    }

    @Test("the store stays within its bound by evicting the least recently used answers")
    func evictsLeastRecentlyUsed() async throws {
        let fixture = Fixture(maximumBytes: 4000)
        let bodies = (1...20).map { Data(String(repeating: "\($0 % 10)", count: 600).utf8) }
        for (index, body) in bodies.enumerated() {
            let key = StoreKey(scope: "s", partition: "p", method: "GET", path: "/k/\(index)", target: "/k/\(index)", variant: "")
            fixture.store.save(StoredResponse(status: 200, headerFields: [:], body: body, etag: nil, confirmedAt: Date()), for: key)
            if index >= 1 {
                // Keep /k/0 in use: it must survive while others are evicted.
                let first = StoreKey(scope: "s", partition: "p", method: "GET", path: "/k/0", target: "/k/0", variant: "")
                #expect(fixture.store.response(for: first) != nil, "the most recently used answer was evicted at \(index)")
            }
        }
        let info = fixture.store.info
        #expect(info.bytes <= 4000)
        #expect(info.entries >= 4 && info.entries < 20)
        // An answer over a quarter of the bound is not kept at all.
        let big = StoreKey(scope: "s", partition: "p", method: "GET", path: "/big", target: "/big", variant: "")
        fixture.store.save(StoredResponse(status: 200, headerFields: [:], body: Data(count: 1500), etag: nil, confirmedAt: Date()), for: big)
        #expect(fixture.store.response(for: big) == nil)
    }

    @Test("many tasks reading and writing at once leave a consistent store")
    func concurrentTasks() async throws {
        let fixture = Fixture()
        let store = fixture.store
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for index in 0..<25 {
                        let key = StoreKey(scope: "s", partition: "p", method: "GET", path: "/t/\(task)/\(index)", target: "/t/\(task)/\(index)", variant: "")
                        store.save(StoredResponse(status: 200, headerFields: [.eTag: "\"\(index)\""], body: Data("\(task)-\(index)".utf8), etag: "\"\(index)\"", confirmedAt: Date()), for: key)
                        _ = store.response(for: key)
                    }
                }
            }
        }
        #expect(store.info.entries == 400)
        let key = StoreKey(scope: "s", partition: "p", method: "GET", path: "/t/15/24", target: "/t/15/24", variant: "")
        #expect(store.response(for: key)?.body == Data("15-24".utf8))
        #expect(fixture.logs.entries.isEmpty)
    }

    @Test("a file that is not a database, truncated, or of another schema version is moved aside and replaced", arguments: DamagedFile.allCases)
    func recoversFromDamagedFiles(_ damage: DamagedFile) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        let file = directory.appendingPathComponent("responses.sqlite")
        do {
            // A healthy store with enough answers to span many pages, then closed.
            let fixture = Fixture(directory: directory)
            for index in 0..<200 {
                let key = StoreKey(scope: "s", partition: "p", method: "GET", path: "/x/\(index)", target: "/x/\(index)", variant: "")
                fixture.store.save(StoredResponse(status: 200, headerFields: [:], body: Data(count: 900), etag: nil, confirmedAt: Date()), for: key)
            }
            #expect(fixture.store.info.entries == 200)
        }
        try damage.apply(to: file)
        let fixture = Fixture(directory: directory)
        // The app keeps working: the read goes to the server, and its answer is kept again.
        #expect(try await fixture.notes.read(id: 1).text == "first")
        #expect(fixture.store.info.entries == 1)
        #expect(FileManager.default.fileExists(atPath: file.path + ".broken"), "the damaged file is kept aside")
        let warnings = fixture.logs.entries.filter { $0.level == .warning }.map(\.message)
        #expect(warnings.contains { $0.contains("moved it aside") }, "\(warnings)")
        await fixture.server.unplug()
        #expect(try await fixture.notes.read(id: 1).text == "first", "the fresh store serves offline")
    }

    @Test("a full disk fails the write to the store, never the request")
    func fullDisk() async throws {
        let fixture = Fixture(pageLimit: 6)
        for id in 3...40 {
            await fixture.server.set(id, String(repeating: "n", count: 2000))
        }
        for id in 1...40 {
            #expect(try await fixture.notes.read(id: id).id == id)
        }
        let warnings = fixture.logs.entries.filter { $0.level == .warning }.map(\.message)
        #expect(warnings.contains { $0.contains("full") }, "\(warnings)")
        #expect(fixture.store.info.entries < 40)
    }

    @Test("a stored answer keeps its header fields and status")
    func storedHeaderFieldsRoundTrip() {
        let fields: HTTPFields = [.eTag: "\"a\"", .contentType: "application/json", HTTPField.Name("Link")!: "</n?page=2>; rel=\"next\""]
        #expect(StoredResponse.fields(from: StoredResponse.data(from: fields)) == fields)
    }
}

extension NotesServer {
    func removeNote(_ id: Int) {
        notes[id] = nil
        version += 1
    }
}

/// Ways a store file is found broken.
enum DamagedFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case notADatabase
    case truncated
    case otherSchemaVersion

    var testDescription: String { rawValue }

    func apply(to file: URL) throws {
        switch self {
        case .notADatabase:
            try Data("this is a text file, not a response store\n".utf8).write(to: file)
        case .truncated:
            let data = try Data(contentsOf: file)
            try data.prefix(data.count / 2).write(to: file)
        case .otherSchemaVersion:
            let db = try SQLiteConnection(path: file.path)
            try db.execute("PRAGMA user_version = 99")
        }
    }
}
