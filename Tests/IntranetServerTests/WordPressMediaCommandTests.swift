import Foundation
import Testing

/// `intranet-server import wordpress … --media-dir` as an admin runs it on the server machine.
@Suite("WordPress import: media from the command line", .serialized)
struct WordPressMediaCommandTests {
    @Test("--media-dir brings the files and reports them; a second run reads none; --media-dir with --fetch-media is refused")
    func mediaDirectoryFromTheCommandLine() async throws {
        let binary = ServerBinaryTests()
        let directory = try binary.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export.xml").path
        try Data(WordPressMediaImportTests.wordPress.export.utf8).write(to: URL(fileURLWithPath: export))
        let uploads = try WordPressMediaImportTests.uploadsDirectory()

        let first = try await binary.run(["import", "wordpress", export, "--media-dir", uploads.path, "--output", "json"], in: directory)
        let again = try await binary.run(["import", "wordpress", export, "--media-dir", uploads.path], in: directory)
        let both = try await binary.run(["import", "wordpress", export, "--media-dir", uploads.path, "--fetch-media"], in: directory)

        #expect(first.status == 0, "\(first.output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any])
        let media = try #require(report["media"] as? [String: Any])
        #expect(media["filesRead"] as? Int == 5 && media["attached"] as? Int == 5 && media["bodiesRewritten"] as? Int == 2, "\(media)")
        #expect(again.status == 0)
        #expect(again.output.contains("media read from the directory: 0 files read, 0 attachments added, 5 already imported"), "\(again.output)")
        #expect(both.status != 0 && both.output.contains("give either --media-dir or --fetch-media"), "\(both.output)")
    }
}
