import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing
@testable import IntranetServer

/// Attached files are read by who may read their announcement, with the conditional and
/// partial requests of RFC 9110.
@Suite("Attachments: serving")
struct AttachmentServingTests {
    /// 2,000 bytes whose every byte tells its place.
    static let content = Data("%PDF-1.4\n".utf8) + Data((9..<2_000).map { UInt8($0 % 256) })

    @Test("a restricted or draft post's files are 404 to others by every URL and format, signed out too; its readers get them", arguments: TestStorage.all)
    func readersOnly(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let restricted = try await client.createAnnouncement(#"{"title":"Board minutes","readers":[\#(TestUser.otherReader.id)]}"#)
            let draft = try await client.createAnnouncement(#"{"title":"Not yet","status":"draft"}"#)
            for id in [restricted, draft] {
                let photo = try await client.attach(try ImageFixture.data("diagram.png"), name: "secret.png", to: id)
                let attachmentID = try #require(photo["id"] as? Int)
                let base = "/announcements/\(id)/attachments"
                let uris = [base, "\(base)/\(attachmentID)", "\(base)/\(attachmentID)/file", "\(base)/\(attachmentID)/file/320", "\(base)/\(attachmentID)/file/800"]
                for uri in uris {
                    // Descriptions are JSON or Spearal (another type is a 406 whatever the id);
                    // files are any type.
                    let accepts = uri.contains("/file") ? ["image/*", "*/*", "application/json"] : ["application/json", "application/spearal", "*/*"]
                    for caller in [Caller.reader, .anonymous] {
                        for accept in accepts {
                            let answer = try await client.read(uri, headers: [.accept: accept], as: caller)
                            #expect(answer.status == .notFound, "\(uri) \(accept) \(caller): \(answer.status)")
                            #expect(!answer.text.contains("secret.png"))
                        }
                    }
                    #expect(try await client.read(uri, as: .editor).status == .ok, "\(uri) for the editor")
                    #expect(try await client.send(.head, uri, as: .reader).status == .notFound)
                }
                #expect(try await client.upload(Data("x".utf8), name: "x.txt", to: id, as: .reader).status == .notFound)
                #expect(try await client.send(.patch, "\(base)/\(attachmentID)", json: #"{"name":"y"}"#, as: .reader).status == .notFound)
            }
            let named = try await client.read("/announcements/\(restricted)/attachments", as: .otherReader)
            #expect(named.status == .ok)
            let fileURL = try #require(try named.objects().first?["url"] as? String)
            let file = try await client.read(fileURL, as: .otherReader)
            #expect(file.status == .ok)
            #expect(file.headers[.cacheControl] == "private, no-cache", "a restricted file is for its reader's cache only")
        }
    }

    @Test("Range: one range 206, a suffix, an open end, several as multipart/byteranges, none in the file 416, malformed or If-Range with another tag the whole file", arguments: TestStorage.all)
    func ranges(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Ranges"}"#)
            let url = try #require(try await client.attach(Self.content, name: "r.pdf", to: id)["url"] as? String)
            let whole = try await client.read(url)
            let etag = try #require(whole.headers[.eTag])
            #expect(whole.headers[.acceptRanges] == "bytes")
            func get(_ range: String, ifRange: String? = nil) async throws -> TestResponse {
                var headers: HTTPFields = [.range: range]
                if let ifRange { headers[.ifRange] = ifRange }
                return try await client.read(url, headers: headers)
            }
            let first = try await get("bytes=0-99")
            #expect(first.status == .partialContent)
            #expect(first.headers[.contentRange] == "bytes 0-99/2000")
            #expect(Data(buffer: first.body) == Self.content.prefix(100))
            let suffix = try await get("bytes=-10")
            #expect(suffix.headers[.contentRange] == "bytes 1990-1999/2000" && Data(buffer: suffix.body) == Self.content.suffix(10))
            let open = try await get("bytes=1500-")
            #expect(open.headers[.contentRange] == "bytes 1500-1999/2000" && open.body.readableBytes == 500)
            let beyond = try await get("bytes=1900-5000")
            #expect(beyond.headers[.contentRange] == "bytes 1900-1999/2000")
            let merged = try await get("bytes=0-9, 5-19")
            #expect(merged.status == .partialContent && merged.headers[.contentRange] == "bytes 0-19/2000", "overlapping ranges merge")

            let several = try await get("bytes=0-1, 100-102")
            #expect(several.status == .partialContent)
            let type = try #require(several.headers[.contentType])
            #expect(type.hasPrefix("multipart/byteranges; boundary="))
            let boundary = String(type.dropFirst("multipart/byteranges; boundary=".count))
            let text = String(decoding: Data(buffer: several.body), as: UTF8.self)
            #expect(text.contains("--\(boundary)\r\nContent-Type: application/pdf\r\nContent-Range: bytes 0-1/2000\r\n\r\n%P\r\n"))
            #expect(text.contains("Content-Range: bytes 100-102/2000\r\n\r\n"))
            #expect(text.hasSuffix("\r\n--\(boundary)--\r\n"))
            #expect(several.headers[.contentLength] == String(several.body.readableBytes))

            let unsatisfiable = try await get("bytes=2000-2100")
            #expect(unsatisfiable.status == .rangeNotSatisfiable)
            #expect(unsatisfiable.headers[.contentRange] == "bytes */2000")
            for malformed in ["bytes=abc", "bytes=5-1", "items=0-1", "bytes=0-1;x", "bytes="] {
                let answer = try await get(malformed)
                #expect(answer.status == .ok && answer.body.readableBytes == 2000, "\(malformed): \(answer.status)")
            }
            let tooMany = try await get("bytes=" + (0..<20).map { "\($0 * 50)-\($0 * 50 + 1)" }.joined(separator: ","))
            #expect(tooMany.status == .ok, "more than 16 ranges: the whole file")
            #expect(try await get("bytes=0-9", ifRange: etag).status == .partialContent)
            #expect(try await get("bytes=0-9", ifRange: "\"other\"").status == .ok)

            let notModified = try await client.read(url, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified && notModified.body.readableBytes == 0)
            #expect(notModified.headers[.eTag] == etag)
            #expect(try await client.read(url, headers: [.ifNoneMatch: "\"else\""]).status == .ok)
        }
    }

    @Test("a file over 1 MiB streams from its rows: whole, and ranges across row boundaries", arguments: TestStorage.all)
    func largeFiles(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Handbook"}"#)
            let size = 2 * DatabaseBlobStore.chunkSize + 12_345
            let handbook = Data("%PDF-1.7\n".utf8) + Data((9..<size).map { UInt8(($0 * 7) % 256) })
            let url = try #require(try await client.attach(handbook, name: "handbook.pdf", to: id)["url"] as? String)
            let whole = try await client.read(url)
            #expect(whole.status == .ok && Data(buffer: whole.body) == handbook)
            let start = DatabaseBlobStore.chunkSize - 10
            let across = try await client.read(url, headers: [.range: "bytes=\(start)-\(start + DatabaseBlobStore.chunkSize + 19)"])
            #expect(across.status == .partialContent)
            #expect(Data(buffer: across.body) == handbook[start..<(start + DatabaseBlobStore.chunkSize + 20)])
            let tail = try await client.read(url, headers: [.range: "bytes=-5, 0-3"])
            #expect(tail.status == .partialContent && tail.headers[.contentType]?.hasPrefix("multipart/byteranges") == true)
        }
    }

    @Test("a signed upload streams: a good signature stores it, a wrong one is 401 and stores nothing")
    func signedUpload() async throws {
        try await withTestServer(.sqlite, configure: { $0.requiresSignature = true }) { server, client in
            let app = try await SigningAppRegistry(database: server.database.database).register(name: "Phone app 3.2")
            let create = #"{"title":"Signed"}"#
            let created = try await client.send(.post, "/announcements", headers: signed(app, "POST", "/announcements", body: create), json: create)
            let id = try #require(try created.object()["id"] as? Int)
            let text = String(repeating: "menu line\n", count: 10_000)
            let path = "/announcements/\(id)/attachments"
            let good = try await client.upload(Data(text.utf8), name: "menu.txt", type: "text/plain", to: id, headers: signed(app, "POST", path, body: text))
            #expect(good.status == .created, "\(good.text)")
            let wrong = try await client.upload(
                Data((text + "tampered").utf8), name: "other.txt", type: "text/plain", to: id, headers: signed(app, "POST", path, body: text))
            #expect(wrong.status == .unauthorized)
            #expect(try await StorageCounts.read(server).attachments == 1)
        }
    }

    @Test("an upload cut off mid-body stores nothing and leaves no temporary file", arguments: TestStorage.all)
    func cutOffUpload(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let port = try #require(client.port)
            let id = try await client.createAnnouncement(#"{"title":"Cut off"}"#)
            let temporary = FileManager.default.temporaryDirectory.path
            func uploads() throws -> Set<String> {
                Set(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("intranet-upload-") })
            }
            let before = try uploads()
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
            let head = "POST /announcements/\(id)/attachments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(TestUser.editor.token)\r\n"
                + "Content-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"cut.pdf\"\r\nContent-Length: 3000000\r\n\r\n%PDF-1.4\n"
            try await channel.writeAndFlush(ByteBuffer(string: head)).get()
            try await channel.writeAndFlush(ByteBuffer(repeating: 0x41, count: 1_500_000)).get()
            try await Task.sleep(for: .milliseconds(300))
            #expect(try uploads().subtracting(before).count == 1, "the upload is being received into a temporary file")
            try await channel.close().get()
            let deadline = ContinuousClock.now + .seconds(10)
            while try !uploads().subtracting(before).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try uploads().subtracting(before).isEmpty, "the temporary file is removed")
            #expect(try await StorageCounts.read(server) == StorageCounts(files: 0, chunks: 0, attachments: 0, variants: 0))
            #expect(try await client.read("/announcements/\(id)/attachments").objects().isEmpty)
        }
    }

    @Test("Expect: 100-continue gets 100 Continue before the final answer, so curl sends an upload at once")
    func expectContinue() async throws {
        try await withTestServer(.sqlite, mode: .live) { _, client in
            let port = try #require(client.port)
            let body = "%PDF-1.4 notes"
            let request = "POST /announcements/1/attachments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(TestUser.editor.token)\r\n"
                + "Content-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"notes.pdf\"\r\nExpect: 100-continue\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            let answers = try await RawHTTP.exchange(port: port, requests: [request])
            #expect(answers.map(\.statusLine) == ["HTTP/1.1 100 Continue", "HTTP/1.1 201 Created"])
        }
    }
}
