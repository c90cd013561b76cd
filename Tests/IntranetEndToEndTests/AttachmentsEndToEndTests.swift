import Crypto
import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Synchronization
import Testing
@testable import IntranetServer

/// The SDK's attachments against the real server on a loopback socket: uploads read from disk
/// with their progress, the editors' changes, downloads written to disk, and who may see them.
@Suite("Attachments end to end")
struct AttachmentsEndToEndTests {
    /// The server tests' image fixtures.
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IntranetServerTests/Fixtures/images")

    /// A directory of its own for one test's files, removed afterwards.
    private static func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    /// `count` bytes that are no known file type (a zero byte first: not text), in a file.
    private static func binaryFile(_ count: Int, named name: String, in directory: URL) throws -> (URL, Data) {
        let bytes = Data((0..<count).map { index in index == 0 ? 0 : UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) })
        let url = directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return (url, bytes)
    }

    private static func hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    @Test("an editor uploads a file and an image with progress, lists them, renames, sets and removes alt text, reorders and removes; the 3.0 detail lists them in order", arguments: WireFormat.allCases)
    func editorsRoundTrip(format: WireFormat) async throws {
        try await withLiveServer { url in
            try await Self.withDirectory { directory in
                let editor = try await signedInClient(url, as: "editor", version: .v3_0, format: format)
                let post = try await editor.announcements.create(AnnouncementDraft(title: "Office move", body: "<p>The plans.</p>"))
                let (minutesURL, minutes) = try Self.binaryFile(3_000_000, named: "minutes.bin", in: directory)
                let reports = ProgressReports()

                let file = try await editor.attachments.upload(minutesURL, to: post.id) { sent, total in
                    reports.add(sent, total)
                }
                let image = try await editor.attachments.upload(Self.images.appendingPathComponent("diagram.png"), to: post.id, name: "Floor plan – 3rd.png")

                let progress = reports.all
                #expect(progress.count > 1, "reported as the bytes left: \(progress.count) reports")
                #expect(progress.map(\.0) == progress.map(\.0).sorted(), "never backwards")
                #expect(progress.last?.0 == Int64(minutes.count) && progress.allSatisfy { $0.1 == Int64(minutes.count) })
                #expect(file.name == "minutes.bin" && file.size == minutes.count && file.mediaType == "application/octet-stream")
                #expect(file.sha256 == Self.hex(minutes))
                #expect(file.url == "/announcements/\(post.id)/attachments/\(file.id)/file" && !file.isImage)
                #expect(image.name == "Floor plan – 3rd.png", "a name beyond ASCII arrives whole")
                #expect(image.mediaType == "image/png" && image.width == 900 && image.height == 600 && image.alt == nil)
                #expect(image.variants?.map(\.width) == image.variants?.map(\.width).sorted())
                #expect(try await editor.attachments.list(of: post.id) == [file, image])
                #expect(try await editor.attachments.read(image.id, of: post.id) == image)

                let renamed = try await editor.attachments.rename(file.id, of: post.id, to: "Minutes, 3 March.bin")
                let described = try await editor.attachments.setAlt(image.id, of: post.id, to: "The third floor's plan")
                #expect(renamed.name == "Minutes, 3 March.bin" && renamed.sha256 == file.sha256)
                #expect(described.alt == "The third floor's plan")
                let notAnImage = await #expect(throws: RepositoryError.self) { try await editor.attachments.setAlt(file.id, of: post.id, to: "Text") }
                #expect(notAnImage?.statusCode == 422)
                _ = try await editor.attachments.move(image.id, of: post.id, to: 0)
                #expect(try await editor.attachments.list(of: post.id).map(\.id) == [image.id, file.id])
                let detail = try await editor.announcements.read(id: post.id)
                #expect(detail.attachments.map(\.name) == ["Floor plan – 3rd.png", "Minutes, 3 March.bin"])
                #expect(detail.attachments.first?.alt == "The third floor's plan")
                let cleared = try await editor.attachments.setAlt(image.id, of: post.id, to: nil)
                #expect(cleared.alt == nil)
                let older = try await signedInClient(url, as: "editor", version: .v2_0, format: format)
                #expect(try await older.announcements.read(id: post.id).attachments.isEmpty, "2.0 details carry no attachments")

                try await editor.attachments.delete(file.id, of: post.id)
                #expect(try await editor.attachments.list(of: post.id).map(\.id) == [image.id])
                let gone = await #expect(throws: RepositoryError.self) { try await editor.attachments.read(file.id, of: post.id) }
                guard case .notFound? = gone else {
                    Issue.record("a removed attachment is notFound, got \(String(describing: gone))")
                    return
                }
            }
        }
    }

    @Test("a download writes the bytes to disk: a file as uploaded, an image as the server serves it; an unchanged file is skipped with its ETag")
    func downloads() async throws {
        try await withLiveServer { url in
            try await Self.withDirectory { directory in
                let editor = try await signedInClient(url, as: "editor", version: .v3_0)
                let reader = try await signedInClient(url, as: "reader", version: .v3_0)
                let post = try await editor.announcements.create(AnnouncementDraft(title: "Harbour photos"))
                let (sourceURL, source) = try Self.binaryFile(2_500_000, named: "report.bin", in: directory)
                let file = try await editor.attachments.upload(sourceURL, to: post.id)
                let photo = try await editor.attachments.upload(Self.images.appendingPathComponent("gps.jpg"), to: post.id)
                let fileCopy = directory.appendingPathComponent("copy.bin")
                let photoCopy = directory.appendingPathComponent("photo.jpg")
                try Data("an older copy".utf8).write(to: photoCopy)

                let fileOutcome = try await reader.attachments.download(file, to: fileCopy)
                let photoOutcome = try await reader.attachments.download(photo, to: photoCopy)
                let served = try await reader.restClient.send(RESTRequest(.get, path: photo.url).setting(.accept, to: "*/*")).body
                let variant = try #require(photo.variants?.first)
                let smallCopy = directory.appendingPathComponent("small.jpg")
                _ = try await reader.attachments.download(photo, variant: variant, to: smallCopy)

                #expect(try Data(contentsOf: fileCopy) == source, "the bytes uploaded")
                #expect(try Data(contentsOf: photoCopy) == served, "the cleaned image the server serves, replacing the older copy")
                let original = try Data(contentsOf: Self.images.appendingPathComponent("gps.jpg"))
                #expect(served.count == photo.size && served != original, "served cleaned, not as uploaded")
                #expect(try Data(contentsOf: smallCopy).count < served.count)
                guard case .downloaded(let saved) = fileOutcome, case .downloaded(let savedPhoto) = photoOutcome else {
                    Issue.record("downloaded: \(fileOutcome), \(photoOutcome)")
                    return
                }
                #expect(saved.size == Int64(source.count) && saved.url == fileCopy)
                #expect(saved.etag == "\"\(Self.hex(source))\"", "a strong tag: the bytes' hash")
                #expect(savedPhoto.mediaType == "image/jpeg")
                let again = try await reader.attachments.download(file, to: fileCopy, ifNoneMatch: saved.etag)
                #expect(again == .notModified)
                #expect(try Data(contentsOf: fileCopy) == source)
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".part") }
                #expect(leftovers.isEmpty, "no partial file is left behind")
            }
        }
    }

    @Test("a reader who may not read the announcement gets notFound for its attachments, their descriptions and their files, and nothing is written")
    func hiddenFromReaders() async throws {
        try await withLiveServer { url in
            try await Self.withDirectory { directory in
                let editor = try await signedInClient(url, as: "editor", version: .v3_0)
                let reader = try await signedInClient(url, as: "reader", version: .v3_0)
                let post = try await editor.announcements.create(AnnouncementDraft(title: "Board only", readers: .only([2])))
                let (sourceURL, _) = try Self.binaryFile(10_000, named: "salaries.bin", in: directory)
                let file = try await editor.attachments.upload(sourceURL, to: post.id)
                let destination = directory.appendingPathComponent("stolen.bin")

                let listed = await #expect(throws: RepositoryError.self) { try await reader.attachments.list(of: post.id) }
                let described = await #expect(throws: RepositoryError.self) { try await reader.attachments.read(file.id, of: post.id) }
                let downloaded = await #expect(throws: RepositoryError.self) { try await reader.attachments.download(file, to: destination) }
                let uploaded = await #expect(throws: RepositoryError.self) { try await reader.attachments.upload(sourceURL, to: post.id) }

                for error in [listed, described, downloaded, uploaded] {
                    guard case .notFound? = error else {
                        Issue.record("expected notFound, got \(String(describing: error))")
                        continue
                    }
                }
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["salaries.bin"])
            }
        }
    }

    @Test("a file over the server's limit is refused with 413 naming the limit; a file that cannot be read is localStore and nothing is sent")
    func refusals() async throws {
        try await withLiveServer(configure: { $0.attachmentMaxBytes = 1 << 20 }) { url in
            try await Self.withDirectory { directory in
                let editor = try await signedInClient(url, as: "editor", version: .v3_0)
                let post = try await editor.announcements.create(AnnouncementDraft(title: "Too big"))
                let (bigURL, _) = try Self.binaryFile(2 << 20, named: "big.bin", in: directory)

                let tooLarge = await #expect(throws: RepositoryError.self) { try await editor.attachments.upload(bigURL, to: post.id) }
                let missing = await #expect(throws: RepositoryError.self) {
                    try await editor.attachments.upload(directory.appendingPathComponent("none.bin"), to: post.id)
                }

                #expect(tooLarge?.statusCode == 413, "\(String(describing: tooLarge))")
                #expect(tooLarge?.problem?.detail?.contains("1048576 bytes") == true, "\(String(describing: tooLarge?.problem))")
                guard case .localStore? = missing else {
                    Issue.record("expected localStore, got \(String(describing: missing))")
                    return
                }
                #expect(try await editor.attachments.list(of: post.id).isEmpty)
            }
        }
    }

    @Test("on a server that takes only signed requests, an upload is signed over the whole file and accepted")
    func signedUpload() async throws {
        try await withSigningLiveServer { url, key in
            try await Self.withDirectory { directory in
                let editor = IntranetClient(baseURL: url, apiVersion: .v3_0, configuration: IntranetClientConfiguration(signingKey: key))
                _ = try await editor.session.login(username: "editor", password: liveTestPassword)
                let post = try await editor.announcements.create(AnnouncementDraft(title: "Signed"))
                let (sourceURL, source) = try Self.binaryFile(1_500_000, named: "signed.bin", in: directory)
                let unsigned = IntranetClient(baseURL: url, apiVersion: .v3_0)

                let file = try await editor.attachments.upload(sourceURL, to: post.id)
                let copy = directory.appendingPathComponent("copy.bin")
                _ = try await editor.attachments.download(file, to: copy)
                let refused = await #expect(throws: RepositoryError.self) { try await unsigned.attachments.download(file, to: copy) }

                #expect(file.sha256 == Self.hex(source))
                #expect(try Data(contentsOf: copy) == source)
                #expect(refused?.statusCode == 401)
            }
        }
    }
}

/// The progress an upload reported, from the transport's thread.
private final class ProgressReports: Sendable {
    private let reports = Mutex<[(sent: Int64, total: Int64)]>([])

    var all: [(sent: Int64, total: Int64)] { reports.withLock { $0 } }

    func add(_ sent: Int64, _ total: Int64) {
        reports.withLock { $0.append((sent, total)) }
    }
}
