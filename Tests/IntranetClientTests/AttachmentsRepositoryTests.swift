import Crypto
import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting
import Spearal
import Testing

/// `AttachmentsRepository` through `MockTransport`: the exact request each call builds, the
/// decoding of the answers, and what a download leaves on disk.
@Suite("AttachmentsRepository")
struct AttachmentsRepositoryTests {
    private static let plan = AttachmentDescription(
        id: 5, name: "plan.png", mediaType: "image/png", size: 3066, sha256: String(repeating: "a", count: 64),
        url: "/announcements/7/attachments/5/file", width: 900, height: 600, alt: nil,
        variants: [ImageVariant(width: 320, height: 213, url: "/announcements/7/attachments/5/file/320")])

    private static func answer(_ value: AttachmentDescription, status: HTTPResponse.Status = .ok) -> MockResponse {
        .json(value, status: status, encoder: IntranetJSON.encoder())
    }

    /// A directory of its own for one test's files, removed afterwards.
    private static func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    @Test("upload posts the file's bytes as they are, named in Content-Disposition in ASCII and in UTF-8, and decodes the description")
    func uploadRequest() async throws {
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("Floor plan – 3rd \"final\".png")
            let bytes = Data("not really a picture".utf8)
            try bytes.write(to: file)
            let transport = MockTransport(script: [Self.answer(Self.plan, status: .created)])
            let intranet = IntranetClient(transport: transport)

            let described = try await intranet.attachments.upload(file, to: 7)

            let sent = try #require(await transport.lastRequest)
            #expect(sent.method == .post)
            #expect(sent.path == "/announcements/7/attachments")
            #expect(sent.body == bytes)
            #expect(sent.headerFields[.contentType] == "application/octet-stream")
            #expect(sent.headerFields[.contentDisposition]
                == #"attachment; filename="Floor plan _ 3rd _final_.png"; filename*=UTF-8''Floor%20plan%20%E2%80%93%203rd%20%22final%22.png"#)
            #expect(described == Self.plan)
        }
    }

    @Test("upload names the file as asked, and a file that cannot be read is localStore with nothing sent")
    func uploadNameAndUnreadableFile() async throws {
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("scan0001.pdf")
            try Data("%PDF-1.7".utf8).write(to: file)
            let transport = MockTransport(script: [Self.answer(Self.plan, status: .created)])
            let intranet = IntranetClient(transport: transport)

            _ = try await intranet.attachments.upload(file, to: 7, name: "Minutes.pdf")
            let error = await #expect(throws: RepositoryError.self) {
                try await intranet.attachments.upload(directory.appendingPathComponent("missing.pdf"), to: 7)
            }

            #expect(await transport.lastRequest?.headerFields[.contentDisposition] == #"attachment; filename="Minutes.pdf"; filename*=UTF-8''Minutes.pdf"#)
            guard case .localStore? = error else {
                Issue.record("expected localStore, got \(String(describing: error))")
                return
            }
            #expect(await transport.requests.count == 1)
        }
    }

    @Test("a signed upload is signed over the SHA-256 of the whole file")
    func signedUpload() async throws {
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("big.bin")
            let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try bytes.write(to: file)
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            let signer = IntranetRequestSigner(appID: "cli", secret: Data("s3cret".utf8), now: { now })
            let transport = MockTransport(script: [Self.answer(Self.plan, status: .created)])
            let intranet = IntranetClient(transport: transport, configuration: IntranetClientConfiguration(signer: signer.sign))

            _ = try await intranet.attachments.upload(file, to: 7)

            let sent = try #require(await transport.lastRequest)
            let message = IntranetRequestSigner.canonicalMessage(
                timestamp: "1795000000000", method: "POST", pathWithQuery: "/announcements/7/attachments", body: bytes)
            #expect(message.hasSuffix("\n" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()))
            let expected = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data("s3cret".utf8)))
            #expect(sent.headerFields[.xSignature] == expected.map { String(format: "%02x", $0) }.joined())
        }
    }

    @Test("list and read ask for the collection and the member, and decode descriptions with and without image properties")
    func listAndRead() async throws {
        let pdf = #"{"id":6,"name":"minutes.pdf","mediaType":"application/pdf","size":120,"sha256":"\#(String(repeating: "b", count: 64))","url":"/announcements/7/attachments/6/file","width":null,"height":null,"alt":null,"variants":null}"#
        let transport = MockTransport(script: [.text("[\(pdf)]"), .text(pdf)])
        let intranet = IntranetClient(transport: transport)

        let listed = try await intranet.attachments.list(of: 7)
        let read = try await intranet.attachments.read(6, of: 7)

        #expect(await transport.requests.map(\.path) == ["/announcements/7/attachments", "/announcements/7/attachments/6"])
        #expect(await transport.requests.map(\.method) == [.get, .get])
        #expect(listed == [read])
        #expect(read.name == "minutes.pdf" && !read.isImage && read.variants == nil)
    }

    @Test("rename, setAlt and move send merge patches naming only what changes; setAlt(nil) sends null; delete sends DELETE")
    func writes() async throws {
        let transport = MockTransport(script: [Self.answer(Self.plan), Self.answer(Self.plan), Self.answer(Self.plan), Self.answer(Self.plan), .status(.noContent)])
        let intranet = IntranetClient(transport: transport)

        try await intranet.attachments.rename(5, of: 7, to: "Plan, 3rd floor.png")
        try await intranet.attachments.setAlt(5, of: 7, to: "The third floor")
        try await intranet.attachments.setAlt(5, of: 7, to: nil)
        try await intranet.attachments.move(5, of: 7, to: 0)
        try await intranet.attachments.delete(5, of: 7)

        let requests = await transport.requests
        #expect(requests.map(\.method) == [.patch, .patch, .patch, .patch, .delete])
        #expect(requests.allSatisfy { $0.path == "/announcements/7/attachments/5" })
        #expect(requests.prefix(4).allSatisfy { $0.headerFields[.contentType] == "application/merge-patch+json" })
        #expect(requests.prefix(4).map(\.bodyText) == [
            #"{"name":"Plan, 3rd floor.png"}"#, #"{"alt":"The third floor"}"#, #"{"alt":null}"#, #"{"position":0}"#,
        ])
    }

    @Test("in Spearal a patch is the partial intranet.Attachment bean: only what it sets, alt as null to remove it")
    func spearalPatches() async throws {
        let transport = MockTransport(script: [.spearal(Self.plan), .spearal(Self.plan), .spearal(Self.plan)])
        let intranet = IntranetClient(transport: transport, format: .spearal)

        try await intranet.attachments.move(5, of: 7, to: 0)
        try await intranet.attachments.rename(5, of: 7, to: "Plan.png")
        try await intranet.attachments.setAlt(5, of: 7, to: nil)

        let beans = try await transport.requests.map { request -> String in
            guard case .bean(let bean) = try SpearalDecoder().decodeValue(from: try #require(request.body)) else { return "not a bean" }
            let properties = bean.properties.map { property -> String in
                switch property.value {
                case .integral(let number): "\(property.name): \(number)"
                case .string(let text): "\(property.name): \(text)"
                case .null: "\(property.name): null"
                default: "\(property.name): ?"
                }
            }
            return bean.className + " " + properties.joined(separator: ", ")
        }
        #expect(beans == ["intranet.Attachment position: 0", "intranet.Attachment name: Plan.png", "intranet.Attachment alt: null"])
        #expect(await transport.requests.allSatisfy { $0.headerFields[.contentType] == "application/spearal" })
    }

    @Test("download asks for the file with Accept */* and writes it; a variant by its own URL; If-None-Match answered 304 leaves the file alone")
    func download() async throws {
        try await Self.withDirectory { directory in
            let bytes = Data("PNG bytes".utf8)
            let transport = MockTransport(script: [
                MockResponse(headerFields: [.contentType: "image/png", .eTag: "\"abc\""], body: bytes),
                MockResponse(headerFields: [.contentType: "image/png"], body: Data("small".utf8)),
                .status(.notModified, headerFields: [.eTag: "\"abc\""]),
            ])
            let intranet = IntranetClient(transport: transport)
            let destination = directory.appendingPathComponent("plan.png")
            let small = directory.appendingPathComponent("small.png")

            let first = try await intranet.attachments.download(Self.plan, to: destination)
            _ = try await intranet.attachments.download(Self.plan, variant: Self.plan.variants?.first, to: small)
            let again = try await intranet.attachments.download(Self.plan, to: destination, ifNoneMatch: "\"abc\"")

            let requests = await transport.requests
            #expect(requests.map(\.path) == ["/announcements/7/attachments/5/file", "/announcements/7/attachments/5/file/320", "/announcements/7/attachments/5/file"])
            #expect(requests.allSatisfy { $0.method == .get && $0.headerFields[.accept] == "*/*" })
            #expect(requests.map { $0.headerFields[.ifNoneMatch] } == [nil, nil, "\"abc\""])
            #expect(first == .downloaded(.init(url: destination, size: Int64(bytes.count), mediaType: "image/png", etag: "\"abc\"")))
            #expect(again == .notModified)
            #expect(try Data(contentsOf: destination) == bytes)
            #expect(try Data(contentsOf: small) == Data("small".utf8))
        }
    }

    @Test("a download refused with 404 throws notFound and leaves the destination as it was")
    func downloadRefused() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("plan.png")
            try Data("mine".utf8).write(to: destination)
            let transport = MockTransport(script: [.problem(.notFound, title: "Not Found", detail: "No announcement has this id.")])
            let intranet = IntranetClient(transport: transport)

            let error = await #expect(throws: RepositoryError.self) { try await intranet.attachments.download(Self.plan, to: destination) }

            guard case .notFound? = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
            #expect(try Data(contentsOf: destination) == Data("mine".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["plan.png"])
        }
    }

    @Test("a 3.0 detail's attachments are read in order; a 2.0 detail has none")
    func announcementAttachments() throws {
        let decoder = IntranetJSON.decoder()
        let detail = try IntranetJSON.encoder().encode(AnnouncementV3.Detail(
            id: 7, title: "Move", body: nil, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
            publishing: AnnouncementV3.Publishing(status: .published), attachments: [Self.plan]))
        let older = Data(#"{"id":7,"title":"Move","body":null,"createdAt":"2026-11-22T01:02:03.000Z","updatedAt":"2026-11-22T01:02:03.000Z"}"#.utf8)

        #expect(try decoder.decode(Announcement.self, from: detail).attachments == [Self.plan])
        #expect(try decoder.decode(Announcement.self, from: older).attachments.isEmpty)
        #expect(Announcement(id: 1, title: "T", body: nil).attachments.isEmpty)
    }
}
