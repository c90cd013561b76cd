import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Testing
@testable import IntranetTerminal

/// `intranet attach`, `intranet attachments`, `intranet download` and the attachments under
/// `announcements show`: the built binary against a live server, and the bar on a terminal in
/// process.
@Suite("Attachments in the terminal")
struct AttachmentCommandTests {
    /// The server tests' image fixtures.
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IntranetServerTests/Fixtures/images")

    /// A directory of its own for one test's files, removed afterwards.
    private static func withDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// `count` bytes that are no known file type, in a file.
    private static func binaryFile(_ count: Int, named name: String, in directory: URL) throws -> (URL, Data) {
        let bytes = Data((0..<count).map { index in index == 0 ? 0 : UInt8(truncatingIfNeeded: index &* 13 &+ index >> 8) })
        let url = directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return (url, bytes)
    }

    @Test("an editor attaches files (plain progress lines off a terminal), lists them as a table and as JSON, saves one by name and one by id, and show lists them under the body")
    func attachListDownloadShow() async throws {
        try await withLiveAccountServer { live in
            try await Self.withDirectory { directory in
                let server = live.url.absoluteString
                let editor = IntranetClient(baseURL: live.url, apiVersion: .v3_0)
                _ = try await editor.session.login(username: LiveEditor.username, password: LiveEditor.password)
                let post = try await editor.announcements.create(AnnouncementDraft(title: "Office move", body: "<p>See the plan.</p>"))
                let (minutesURL, minutes) = try Self.binaryFile(1_234_567, named: "minutes.bin", in: directory)
                let plan = Self.images.appendingPathComponent("diagram.png")
                let home = directory.appendingPathComponent("home")
                let work = directory.appendingPathComponent("work")
                try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                func intranet(_ arguments: [String], input: String = "") async throws -> RunResult {
                    try await BuiltBinary.run(
                        arguments + ["--server", server], input: Data(input.utf8), environment: ["XDG_CONFIG_HOME": home.path], directory: work)
                }
                let signedOut = try await intranet(["attach", String(post.id), minutesURL.path])
                _ = try await intranet(["login", "--username", LiveEditor.username, "--password-stdin"], input: LiveEditor.password + "\n")

                let attached = try await intranet(["attach", String(post.id), minutesURL.path, plan.path])
                let table = try await intranet(["attachments", String(post.id)])
                let json = try await intranet(["attachments", String(post.id), "--output", "json"])
                let saved = try await intranet(["download", String(post.id), "minutes.bin"])
                let refused = try await intranet(["download", String(post.id), "minutes.bin"])
                let forced = try await intranet(["download", String(post.id), "minutes.bin", "--force"])
                let listed = try await editor.attachments.list(of: post.id)
                let image = try #require(listed.last)
                let byID = try await intranet(["download", String(post.id), String(image.id), "-o", directory.path])
                let unknown = try await intranet(["download", String(post.id), "agenda.pdf"])
                let shown = try await intranet(["announcements", "show", String(post.id)])
                let missing = try await intranet(["attach", String(post.id), directory.appendingPathComponent("none.pdf").path])

                #expect(signedOut.status == 77, "\(signedOut.errors)")
                #expect(attached.status == 0, "\(attached.errors)")
                let lines = attached.output.split(separator: "\n").map(String.init)
                #expect(lines.count == 2, "\(attached.output)")
                #expect(lines.first?.hasPrefix("Attached minutes.bin to announcement \(post.id): attachment ") == true, "\(attached.output)")
                #expect(lines.first?.hasSuffix(", application/octet-stream, 1.2 MB") == true, "\(attached.output)")
                #expect(lines.last?.contains("Attached diagram.png to announcement \(post.id)") == true && lines.last?.hasSuffix(", 900×600") == true, "\(attached.output)")
                #expect(attached.errors.contains("uploading minutes.bin (1.2 MB)\n") && attached.errors.contains("sent minutes.bin\n"), "\(attached.errors)")
                #expect(!attached.errors.contains("\u{1B}"), "no bar off a terminal")

                let rows = table.output.split(separator: "\n").map(String.init)
                #expect(rows.first?.hasPrefix("ID  NAME         TYPE") == true && rows.first?.hasSuffix("PIXELS") == true, "\(table.output)")
                #expect(rows.contains { $0.contains("minutes.bin  application/octet-stream") && $0.hasSuffix("1.2 MB") }, "\(table.output)")
                #expect(rows.contains { $0.contains("diagram.png") && $0.contains("image/png") && $0.hasSuffix("900×600") }, "\(table.output)")
                #expect(rows.last == "2 attachments")
                let array = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
                #expect(array.compactMap { $0["name"] as? String } == ["minutes.bin", "diagram.png"])

                #expect(saved.status == 0, "\(saved.errors)")
                #expect(saved.output == "Saved minutes.bin (1.2 MB) to minutes.bin\n")
                #expect(try Data(contentsOf: work.appendingPathComponent("minutes.bin")) == minutes)
                #expect(refused.status == 64 && refused.errors.contains("pass --force"), "\(refused.errors)")
                #expect(forced.status == 0, "\(forced.errors)")
                #expect(byID.status == 0, "\(byID.errors)")
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("diagram.png").path), "saved into the directory under its name")
                #expect(unknown.status == 66 && unknown.errors.contains("has no attachment named “agenda.pdf” (it has: minutes.bin, diagram.png)"), "\(unknown.errors)")
                #expect(shown.status == 0)
                let shownLines = shown.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let heading = try #require(shownLines.firstIndex(of: "Attachments"), "\(shown.output)")
                #expect(shownLines[heading + 1] == "  minutes.bin · application/octet-stream · 1.2 MB", "\(shown.output)")
                #expect(shownLines[heading + 2].hasPrefix("  diagram.png · image/png · ") && shownLines[heading + 2].hasSuffix(" · 900×600"), "\(shown.output)")
                #expect(shownLines[heading + 3] == "Save one with: intranet download \(post.id) NAME")
                #expect(missing.status == 66 && missing.errors.contains("cannot read"), "\(missing.errors)")
            }
        }
    }

    @Test("on a terminal the upload draws a bar on standard error, redrawn in place and cleared at the end")
    func progressBarOnATerminal() async throws {
        try await withLiveAccountServer { live in
            try await Self.withDirectory { directory in
                let (fileURL, _) = try Self.binaryFile(4_000_000, named: "recording.bin", in: directory)
                let transport = URLSessionTransport(baseURL: live.url)
                let environment = ["XDG_CONFIG_HOME": directory.path, "XDG_CACHE_HOME": directory.path]
                let login = await runIntranet(
                    ["login", "--server", live.url.absoluteString, "--username", LiveEditor.username, "--password-stdin"],
                    transport: transport, terminal: CapturedTerminal(input: Data((LiveEditor.password + "\n").utf8)), environment: environment)
                #expect(login.status == 0, "\(login.errors)")
                let editor = IntranetClient(baseURL: live.url, apiVersion: .v3_0)
                _ = try await editor.session.login(username: LiveEditor.username, password: LiveEditor.password)
                let post = try await editor.announcements.create(AnnouncementDraft(title: "All-hands"))

                let run = await runIntranet(
                    ["attach", String(post.id), fileURL.path, "--server", live.url.absoluteString],
                    transport: transport, isErrorTerminal: true, environment: environment)

                #expect(run.status == 0, "\(run.errors)")
                let redraws = run.errors.components(separatedBy: "\r\u{1B}[2K").filter { !$0.isEmpty }
                #expect(redraws.count > 1, "drawn as the bytes leave: \(run.errors.debugDescription)")
                #expect(redraws.allSatisfy { $0.hasPrefix("recording.bin [") }, "\(run.errors.debugDescription)")
                #expect(redraws.last == "recording.bin [##############################] 100% 4.0 MB of 4.0 MB")
                #expect(run.errors.hasSuffix("\r\u{1B}[2K"), "cleared at the end")
                #expect(run.output.hasPrefix("Attached recording.bin to announcement \(post.id): attachment "))
            }
        }
    }

    @Test("on a server that takes only signed requests, attach and download sign with the app's key")
    func signed() async throws {
        try await withLiveAccountServer(requiringSignature: true) { live in
            try await Self.withDirectory { directory in
                let (appID, secret) = try await live.registerApp("intranet CLI")
                let (fileURL, bytes) = try Self.binaryFile(700_000, named: "signed.bin", in: directory)
                let environment = ["XDG_CONFIG_HOME": directory.path, "INTRANET_APP_ID": appID, "INTRANET_APP_SECRET": secret]
                func intranet(_ arguments: [String], input: String = "") async throws -> RunResult {
                    try await BuiltBinary.run(
                        arguments + ["--server", live.url.absoluteString], input: Data(input.utf8), environment: environment, directory: directory)
                }
                _ = try await intranet(["login", "--username", LiveEditor.username, "--password-stdin"], input: LiveEditor.password + "\n")
                let editor = IntranetClient(
                    baseURL: live.url, apiVersion: .v3_0, configuration: IntranetClientConfiguration(signingKey: AppSigningKey(appID: appID, secret: secret)))
                _ = try await editor.session.login(username: LiveEditor.username, password: LiveEditor.password)
                let id = String(try await editor.announcements.create(AnnouncementDraft(title: "Signed")).id)

                let attached = try await intranet(["attach", id, fileURL.path, "--name", "copy.bin", "--verbose"])
                let saved = try await intranet(["download", id, "copy.bin", "--verbose"])

                #expect(attached.status == 0, "\(attached.errors)")
                #expect(attached.errors.contains("— sent 700000 bytes of application/octet-stream → 201"), "\(attached.errors)")
                #expect(saved.status == 0, "\(saved.errors)")
                #expect(saved.errors.contains("→ 200 in ") && saved.errors.contains("received 700000 bytes of application/octet-stream into a file"), "\(saved.errors)")
                #expect(try Data(contentsOf: directory.appendingPathComponent("copy.bin")) == bytes)
            }
        }
    }

    @Test("sizes read as people expect them, in decimal units")
    func byteCounts() {
        #expect(ByteCount.format(0) == "0 B")
        #expect(ByteCount.format(999) == "999 B")
        #expect(ByteCount.format(48_149) == "48.1 kB")
        #expect(ByteCount.format(999_960) == "1.0 MB")
        #expect(ByteCount.format(1_234_567) == "1.2 MB")
        #expect(ByteCount.format(104_857_600) == "104.9 MB")
        #expect(ByteCount.format(3_000_000_000) == "3.0 GB")
    }

    @Test("off a terminal the progress is a line at the start, one per quarter passed, and one at the end")
    func plainProgressLines() {
        var drawn = UploadProgressDisplay.Drawn()
        let reports: [Int64] = [10, 30, 49, 51, 80, 100]

        let lines = reports.compactMap { UploadProgressDisplay.update(&drawn, sent: $0, total: 100, name: "a.pdf", onTerminal: false) }

        #expect(lines == ["a.pdf: 25% sent\n", "a.pdf: 50% sent\n", "a.pdf: 75% sent\n", "sent a.pdf\n"])
    }

    @Test("the table fits the terminal: names are cut with … and the pixels column appears only for images")
    func tableLayout() {
        let long = AttachmentDescription(
            id: 12, name: "A very long name for the minutes of the March meeting.pdf", mediaType: "application/pdf", size: 1_200_000,
            sha256: "", url: "/f")
        let text = AttachmentDescription(id: 3, name: "notes.txt", mediaType: "text/plain; charset=utf-8", size: 512, sha256: "", url: "/f")
        let image = AttachmentDescription(
            id: 4, name: "plan.png", mediaType: "image/png", size: 48_100, sha256: "", url: "/f", width: 900, height: 600)

        let narrow = AttachmentTable(width: 50, isStyled: false).lines(for: [long, text])
        let withImage = AttachmentTable(width: 80, isStyled: false).lines(for: [text, image])

        #expect(narrow == [
            "ID  NAME                   TYPE               SIZE",
            "12  A very long name for…  application/pdf  1.2 MB",
            " 3  notes.txt              text/plain        512 B",
        ])
        #expect(withImage == [
            "ID  NAME       TYPE           SIZE  PIXELS",
            " 3  notes.txt  text/plain    512 B",
            " 4  plan.png   image/png   48.1 kB  900×600",
        ])
    }
}
