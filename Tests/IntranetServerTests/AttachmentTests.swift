import Foundation
import Synchronization
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import IntranetServer

/// Editors attach files; images are read from their bytes, cleaned and resized; the same
/// content is stored once; bad files store nothing.
@Suite("Attachments: uploading")
struct AttachmentTests {
    @Test("a photo declared as PNG is read as the JPEG it is, turned upright, described, listed on the 3.0 detail only, and served", arguments: TestStorage.all)
    func uploadDescribesAndServes(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Summer party"}"#)
            let before = try await client.read("/announcements/\(id)")
            let photo = try ImageFixture.data("gps.jpg")
            let response = try await client.upload(photo, name: "party.png", type: "image/png", to: id)
            #expect(response.status == .created, "\(response.text)")
            let description = try response.object()
            let attachmentID = try #require(description["id"] as? Int)
            #expect(response.headers[.location] == "/announcements/\(id)/attachments/\(attachmentID)")
            #expect(description["name"] as? String == "party.png")
            #expect(description["mediaType"] as? String == "image/jpeg")
            #expect(description["sha256"] as? String == ImageFixture.sha256(photo))
            #expect(description["width"] as? Int == 800 && description["height"] as? Int == 1200, "EXIF orientation 6 applied")
            let url = try #require(description["url"] as? String)
            #expect(url == "/announcements/\(id)/attachments/\(attachmentID)/file")
            let variants = try #require(description["variants"] as? [[String: Any]])
            #expect(variants.map { $0["width"] as? Int } == [320])
            #expect(variants.first?["height"] as? Int == 480)

            let file = try await client.read(url)
            #expect(file.status == .ok)
            #expect(file.headers[.contentType] == "image/jpeg")
            #expect(file.body.readableBytes == description["size"] as? Int)
            let served = Data(buffer: file.body)
            #expect(file.headers[.eTag] == "\"\(ImageFixture.sha256(served))\"", "a strong tag: the served bytes' hash")
            #expect(served != photo, "the photo is served re-encoded")
            #expect(file.headers[.contentDisposition]?.hasPrefix("inline;") == true)
            #expect(file.headers[.cacheControl] == "public, max-age=3600")
            let variant = try await client.read(try #require(variants.first?["url"] as? String))
            #expect(variant.status == .ok && variant.body.readableBytes < file.body.readableBytes)

            let detail = try await client.read("/announcements/\(id)")
            let attached = try #require(try detail.object()["attachments"] as? [[String: Any]])
            #expect(attached.map { $0["id"] as? Int } == [attachmentID])
            #expect(detail.headers[.eTag] != before.headers[.eTag], "attaching changes the announcement")
            for version in ["1.0", "2.0"] {
                let old = try await client.read("/announcements/\(id)", headers: [.acceptVersion: version]).object()
                #expect(old["attachments"] == nil, "\(version) keeps its shape")
            }
            let list = try await client.read("/announcements/\(id)/attachments").objects()
            #expect(list.map { $0["id"] as? Int } == [attachmentID])
            let one = try await client.read("/announcements/\(id)/attachments/\(attachmentID)").object()
            #expect(one["sha256"] as? String == ImageFixture.sha256(photo))
            #expect(try await StorageCounts.read(server) == StorageCounts(files: 2, chunks: 2, attachments: 1, variants: 1))
        }
    }

    @Test("the served photo and its variant carry no GPS position, serial number, orientation or camera, as exiftool reads them", arguments: TestStorage.all)
    func metadataIsStripped(storage: TestStorage) async throws {
        let photo = try ImageFixture.data("gps.jpg")
        let original = try ExifTool.tags(of: photo)
        #expect(original.keys.contains { $0.hasPrefix("GPS:") }, "the fixture has a GPS position")
        #expect(original["ExifIFD:SerialNumber"] as? String == "CAM-SERIAL-0042")
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Site visit"}"#)
            let description = try await client.attach(photo, name: "site.jpg", type: "image/jpeg", to: id)
            let urls = [description["url"] as? String] + ((description["variants"] as? [[String: Any]]) ?? []).map { $0["url"] as? String }
            for url in urls.compactMap({ $0 }) {
                let tags = try ExifTool.tags(of: Data(buffer: try await client.read(url).body))
                let leaked = tags.keys.filter { key in
                    ["GPS:", "ExifIFD:", "IFD0:", "XMP", "IPTC", "ICC"].contains { key.hasPrefix($0) }
                }
                #expect(leaked.isEmpty, "\(url) still carries \(leaked.sorted())")
                #expect(!"\(tags)".contains("CAM-SERIAL-0042") && !"\(tags)".contains("Jane Photographer"))
            }
        }
    }

    @Test("PNG, GIF and WebP are images with variants only when wider than 320; their real type wins over the name", arguments: TestStorage.all)
    func otherImageFormats(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Formats"}"#)
            let png = try await client.attach(try ImageFixture.data("diagram.png"), name: "diagram.jpg", to: id)
            #expect(png["mediaType"] as? String == "image/png" && png["width"] as? Int == 900)
            #expect((png["variants"] as? [[String: Any]])?.map { $0["width"] as? Int } == [320, 800])
            let gif = try await client.attach(try ImageFixture.data("spinner.gif"), name: "spinner.gif", to: id)
            #expect(["image/gif", "image/png"].contains(gif["mediaType"] as? String ?? ""))
            #expect(gif["width"] as? Int == 40 && gif["height"] as? Int == 30, "one frame's height")
            #expect((gif["variants"] as? [[String: Any]])?.isEmpty == true)
            let webp = try await client.attach(try ImageFixture.data("banner.webp"), name: "banner", to: id)
            #expect(webp["mediaType"] as? String == "image/webp" && webp["width"] as? Int == 500)
        }
    }

    @Test("the same photo on two posts and the same PDF twice are stored once each; both attachments serve them", arguments: TestStorage.all)
    func storedOnce(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let first = try await client.createAnnouncement(#"{"title":"One"}"#)
            let second = try await client.createAnnouncement(#"{"title":"Two"}"#)
            let photo = try ImageFixture.data("gps.jpg")
            let pdf = Data("%PDF-1.4\n% canteen menu\n".utf8) + Data(repeating: 0x41, count: 3_000_000)
            let a = try await client.attach(photo, name: "a.jpg", to: first)
            let counts = try await StorageCounts.read(server)
            let b = try await client.attach(photo, name: "b.jpg", to: second)
            #expect(a["url"] as? String != b["url"] as? String)
            #expect(try await StorageCounts.read(server).files == counts.files, "no new file for the same photo")
            _ = try await client.attach(pdf, name: "menu.pdf", to: first)
            let withPDF = try await StorageCounts.read(server)
            #expect(withPDF.files == counts.files + 1 && withPDF.chunks == counts.chunks + 3, "3 MB in 1 MiB rows")
            let again = try await client.attach(pdf, name: "menu (copy).pdf", to: second)
            #expect(try await StorageCounts.read(server).files == withPDF.files)
            #expect(again["mediaType"] as? String == "application/pdf" && again["size"] as? Int == pdf.count)
            #expect(Data(buffer: try await client.read(try #require(again["url"] as? String)).body) == pdf)
            #expect(Data(buffer: try await client.read(try #require(b["url"] as? String)).body)
                == Data(buffer: try await client.read(try #require(a["url"] as? String)).body))
        }
    }

    @Test("a truncated photo and a decompression bomb are 422 with a clear message and store nothing", arguments: TestStorage.all)
    func badImagesStoreNothing(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Broken"}"#)
            let before = try await client.read("/announcements/\(id)")
            let truncated = try await client.upload(try ImageFixture.data("truncated.jpg"), name: "cut.jpg", to: id)
            #expect(truncated.status == .unprocessableContent)
            #expect(truncated.text.contains("cannot be read (truncated or corrupt)"), "\(truncated.text)")
            // An upright photo's full-size copy is rewritten without being decoded: cut off, it
            // is refused all the same.
            let upright = try ImageFixture.data("upright.jpg")
            let cut = try await client.upload(upright.prefix(upright.count / 2), name: "cut.jpg", to: id)
            #expect(cut.status == .unprocessableContent)
            #expect(cut.text.contains("cannot be read (truncated or corrupt)"), "\(cut.text)")
            let bomb = try await client.upload(try ImageFixture.data("bomb.png"), name: "bomb.png", to: id)
            #expect(bomb.status == .unprocessableContent)
            #expect(bomb.text.contains("16000×16000 pixels") && bomb.text.contains("ATTACHMENT_MAX_PIXELS"), "\(bomb.text)")
            #expect(try await StorageCounts.read(server) == StorageCounts(files: 0, chunks: 0, attachments: 0, variants: 0))
            #expect(try await client.read("/announcements/\(id)").headers[.eTag] == before.headers[.eTag])
        }
    }

    @Test("over ATTACHMENT_MAX_BYTES is a 413 naming the limit, declared or streamed; a full quota is a 507; nothing is kept", arguments: TestStorage.all)
    func limits(storage: TestStorage) async throws {
        try await withTestServer(storage, configure: { $0.attachmentMaxBytes = 10_000; $0.attachmentQuotaBytes = 15_000 }) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Limits"}"#)
            let big = try await client.upload(Data(repeating: 1, count: 10_001), name: "big.bin", to: id)
            #expect(big.status == .contentTooLarge)
            #expect(big.text.contains("10000 bytes") && big.text.contains("ATTACHMENT_MAX_BYTES"), "\(big.text)")
            let fits = try await client.upload(Data(repeating: 2, count: 9_000), name: "fits.bin", to: id)
            #expect(fits.status == .created)
            let full = try await client.upload(Data(repeating: 3, count: 9_000), name: "more.bin", to: id)
            #expect(full.status.code == 507)
            #expect(full.text.contains("9000 of 15000 bytes") && full.text.contains("ATTACHMENT_QUOTA_BYTES"), "\(full.text)")
            let same = try await client.upload(Data(repeating: 2, count: 9_000), name: "fits again.bin", to: id)
            #expect(same.status == .created, "content already stored takes no quota")
            #expect(try await StorageCounts.read(server) == StorageCounts(files: 1, chunks: 1, attachments: 2, variants: 0))
        }
    }

    @Test("an SVG with a script and an HTML page are downloads in a sandbox, typed by their bytes, whatever was declared", arguments: TestStorage.all)
    func activeContentIsNeverRendered(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Files"}"#)
            let svg = Data(#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>"#.utf8)
            let html = Data("<!DOCTYPE html><html><body><script>fetch('/users/me')</script></body></html>".utf8)
            for (data, name, expected) in [(svg, "logo.png", "image/svg+xml"), (html, "menu.jpg", "text/html")] {
                let description = try await client.attach(data, name: name, type: "image/png", to: id)
                #expect(description["mediaType"] as? String == expected)
                #expect(description["width"] is NSNull && description["variants"] is NSNull)
                let file = try await client.read(try #require(description["url"] as? String))
                #expect(file.headers[.contentType] == expected)
                #expect(file.headers[.contentDisposition]?.hasPrefix("attachment;") == true, "\(name)")
                #expect(file.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
                #expect(file.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            }
        }
    }

    @Test("editors rename, set alt text on images only, reorder and remove; bad patches are 422 and change nothing; readers may not", arguments: TestStorage.all)
    func editing(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Floor plan"}"#)
            let plan = try await client.attach(try ImageFixture.data("diagram.png"), name: "plan.png", to: id)
            let pdf = try await client.attach(Data("%PDF-1.7\n".utf8), name: "plan.pdf", to: id)
            let notes = try await client.attach(Data("notes".utf8), name: "notes.txt", to: id)
            let ids = [plan, pdf, notes].compactMap { $0["id"] as? Int }
            let base = "/announcements/\(id)/attachments"
            func order() async throws -> [Int] { try await client.read(base).objects().compactMap { $0["id"] as? Int } }
            #expect(try await order() == ids)

            let renamed = try await client.send(.patch, "\(base)/\(ids[0])", json: #"{"name":"Floor 3.png","alt":"Floor 3: desks by the windows"}"#)
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(try renamed.object()["alt"] as? String == "Floor 3: desks by the windows")
            let altOnPDF = try await client.send(.patch, "\(base)/\(ids[1])", json: #"{"alt":"a PDF"}"#)
            #expect(altOnPDF.status == .unprocessableContent && altOnPDF.text.contains("images only"))
            for bad in [#"{"position":3}"#, #"{"position":-1}"#, #"{"name":""}"#, #"{"name":"a\u0000b"}"#, #"{"size":1}"#, #"{"name":5}"#] {
                let refused = try await client.send(.patch, "\(base)/\(ids[2])", json: bad)
                #expect(refused.status == .unprocessableContent, "\(bad): \(refused.status) \(refused.text)")
            }
            #expect(try await client.send(.patch, "\(base)/\(ids[2])", json: #"{"position":0}"#).status == .ok)
            #expect(try await order() == [ids[2], ids[0], ids[1]])
            #expect(try await client.send(.patch, "\(base)/\(ids[2])", json: #"{"name":"x"}"#, as: .reader).status == .forbidden)
            #expect(try await client.send(.delete, "\(base)/\(ids[0])", as: .reader).status == .forbidden)
            #expect(try await client.send(.delete, "\(base)/\(ids[0])").status == .noContent)
            #expect(try await client.send(.delete, "\(base)/\(ids[0])").status == .notFound)
            #expect(try await order() == [ids[2], ids[1]])
            #expect(try await client.read("\(base)/\(ids[0])/file").status == .notFound)
            let named = try await client.read("\(base)/\(ids[1])").object()
            #expect(named["name"] as? String == "plan.pdf")
            let other = try await client.createAnnouncement(#"{"title":"Elsewhere"}"#)
            #expect(try await client.read("/announcements/\(other)/attachments/\(ids[1])").status == .notFound, "an attachment belongs to its announcement")
        }
    }

    @Test("a multipart/form-data upload with one part named file works; a body without it, or with two, is 400", arguments: TestStorage.all)
    func multipart(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Forms"}"#)
            func send(_ parts: [(name: String, fileName: String?, data: Data)]) async throws -> TestResponse {
                let boundary = "----IntranetTestBoundary7MA4YWxk"
                var body = Data()
                for part in parts {
                    body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"".utf8)
                    if let fileName = part.fileName { body += Data("; filename=\"\(fileName)\"\r\nContent-Type: application/pdf".utf8) }
                    body += Data("\r\n\r\n".utf8) + part.data + Data("\r\n".utf8)
                }
                body += Data("--\(boundary)--\r\n".utf8)
                return try await client.execute(
                    uri: "/announcements/\(id)/attachments", method: .post,
                    headers: [.contentType: "multipart/form-data; boundary=\(boundary)", .authorization: "Bearer \(TestUser.editor.token)"],
                    body: ByteBuffer(bytes: body))
            }
            // The file's bytes hold the boundary's prefix and line ends, as real files do.
            let content = Data("%PDF-1.4\r\n------IntranetTest\r\n--\r\n".utf8) + Data((0..<70_000).map { UInt8($0 % 251) })
            let uploaded = try await send([("note", nil, Data("hello".utf8)), ("file", "C:\\Users\\zoe\\Menu.pdf", content)])
            #expect(uploaded.status == .created, "\(uploaded.text)")
            let description = try uploaded.object()
            #expect(description["name"] as? String == "Menu.pdf", "only the last path component")
            #expect(description["sha256"] as? String == ImageFixture.sha256(content))
            #expect(Data(buffer: try await client.read(try #require(description["url"] as? String)).body) == content)
            #expect(try await send([("note", nil, Data("only".utf8))]).status == .badRequest)
            let unnamed = try await client.execute(
                uri: "/announcements/\(id)/attachments", method: .post,
                headers: [.contentType: "application/octet-stream", .authorization: "Bearer \(TestUser.editor.token)"], body: ByteBuffer(bytes: content))
            #expect(try unnamed.object()["name"] as? String == "upload.pdf", "a raw body without a name is named after its type")
            let unreadable = try await client.execute(
                uri: "/announcements/\(id)/attachments", method: .post,
                headers: [.contentType: "application/pdf", .contentDisposition: "attachment; filename=\"unterminated", .authorization: "Bearer \(TestUser.editor.token)"],
                body: ByteBuffer(bytes: content))
            #expect(unreadable.status == .badRequest)
            #expect(try await send([("file", "a.pdf", content), ("file", "b.pdf", content)]).status == .badRequest)
        }
    }

    @Test("deleting an announcement removes its attachments; its files stay 24 hours, then the clean-up removes them unless used again", arguments: TestStorage.all)
    func cleanUp(storage: TestStorage) async throws {
        try await withTestServer(storage) { server, client in
            let id = try await client.createAnnouncement(#"{"title":"Old menu"}"#)
            let keep = try await client.createAnnouncement(#"{"title":"Keeps its file"}"#)
            _ = try await client.attach(try ImageFixture.data("diagram.png"), name: "menu.png", to: id)
            _ = try await client.attach(Data("%PDF-1.4 shared".utf8), name: "shared.pdf", to: id)
            _ = try await client.attach(Data("%PDF-1.4 shared".utf8), name: "shared.pdf", to: keep)
            let before = try await StorageCounts.read(server)
            #expect(try await client.send(.delete, "/announcements/\(id)").status == .noContent)
            let after = try await StorageCounts.read(server)
            #expect(after.attachments == 1 && after.variants == 0)
            #expect(after.files == before.files, "files wait for the clean-up")
            let database = server.database.database
            let blobs = DatabaseBlobStore()
            let now = Date()
            try await StoredFiles.sweep(at: now, blobs: blobs, on: database)
            #expect(try await StorageCounts.read(server).files == before.files, "marked unused, not removed")
            let removed = try await StoredFiles.sweep(at: now.addingTimeInterval(StoredFiles.gracePeriod + 60), blobs: blobs, on: database)
            #expect(removed.files == before.files - 1, "the PNG and its two variants went; the shared PDF stays")
            let final = try await StorageCounts.read(server)
            #expect(final == StorageCounts(files: 1, chunks: 1, attachments: 1, variants: 0))
        }
    }

    @Test("a backup holds the files: a server on the copy serves the same bytes")
    func backupsHoldTheFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = AppConfiguration.Storage.sqliteFile(path: directory.appendingPathComponent("intranet.sqlite").path)
        let copy = directory.appendingPathComponent("copy.sqlite").path
        let handbook = Data("%PDF-1.7\n".utf8) + Data((0..<1_500_000).map { UInt8($0 % 253) })
        let url = Mutex<String?>(nil)
        let served = Mutex<Data?>(nil)
        try await withTestServer(configure: { $0.storage = live }) { _, client in
            let photo = try await client.attach(try ImageFixture.data("diagram.png"), name: "plan.png", to: 1)
            let pdf = try await client.attach(handbook, name: "handbook.pdf", to: 1)
            url.withLock { $0 = pdf["url"] as? String }
            let picture = Data(buffer: try await client.read(try #require(photo["url"] as? String)).body)
            served.withLock { $0 = picture }
            _ = try DatabaseBackup.copy(live, to: copy)
        }
        try await withTestServer(configure: { $0.storage = .sqliteFile(path: copy) }) { _, client in
            let list = try await client.read("/announcements/1/attachments").objects()
            #expect(list.map { $0["name"] as? String } == ["plan.png", "handbook.pdf"])
            #expect(Data(buffer: try await client.read(try #require(url.withLock { $0 })).body) == handbook)
            #expect(Data(buffer: try await client.read(try #require(list.first?["url"] as? String)).body) == served.withLock { $0 })
        }
    }
}
