import Foundation
import IntranetAPI
import IntranetClient
import Testing

/// The built `intranet` binary publishing against a live server: times typed in the local time
/// of `TZ` stored as the right instants and shown back in the zone given, audiences, drafts and
/// the status lists, the table's marks, Markdown bodies, and errors (the server's 422, usage 64).
@Suite("Publishing from the terminal against a live server")
struct PublishingCommandTests {
    /// A signed-in `intranet` against `url`, run under the time zone `TZ` names.
    struct Editor: Sendable {
        let url: URL
        let home: URL

        func run(_ arguments: [String], zone: String = "UTC", input: Data = Data()) async throws -> RunResult {
            try await BuiltBinary.run(
                arguments + ["--server", url.absoluteString], input: input,
                environment: ["XDG_CONFIG_HOME": home.path, "TZ": zone])
        }

        /// Creates an announcement and returns its id, failing the test when it was not created.
        func create(_ arguments: [String], zone: String = "UTC", sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
            let created = try await run(["announcements", "create"] + arguments, zone: zone)
            try #require(created.status == 0, "\(arguments): \(created.errors)", sourceLocation: sourceLocation)
            return try #require(Int(created.output.trimmingCharacters(in: .newlines)), "\(created.output)", sourceLocation: sourceLocation)
        }

        /// The SDK, signed in as the same editor: what the server stored.
        func sdk() async throws -> IntranetClient {
            let client = IntranetClient(baseURL: url)
            try await client.session.login(username: LiveEditor.username, password: LiveEditor.password)
            return client
        }
    }

    private func withEditor(_ body: @Sendable (Editor) async throws -> Void) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-publishing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try await withLiveServer { url in
            let editor = Editor(url: url, home: home)
            let login = try await editor.run(["login", "--username", LiveEditor.username, "--password-stdin"], input: Data((LiveEditor.password + "\n").utf8))
            try #require(login.status == 0, "\(login.errors)")
            try await body(editor)
        }
    }

    private static func instant(_ text: String) throws -> Date {
        try #require(IntranetJSON.parseDate(text), "\(text)")
    }

    /// How `LocalTime` names `zone` at `date` on this platform (`GMT+9` for Tokyo on Linux).
    private static func zoneName(_ zone: String, at date: Date) throws -> String {
        try #require(TimeZone(identifier: zone)?.abbreviation(for: date))
    }

    @Test("times typed in local time (TZ=Asia/Tokyo, TZ=Europe/Lisbon in summer) are stored as the right UTC instants, and show prints them in the TZ given")
    func localTimes() async throws {
        try await withEditor { editor in
            let tokyo = try await editor.create(
                ["--title", "Year-end party", "--publish-at", "2030-12-07 08:00", "--expires-at", "2031-01-05 18:30", "--pin", "--pinned-until", "2030-12-24 00:00"],
                zone: "Asia/Tokyo")
            let lisbon = try await editor.create(["--title", "Summer hours", "--publish-at", "2030-07-01 09:30"], zone: "Europe/Lisbon")
            let explicit = try await editor.create(["--title", "Written with a zone", "--publish-at", "2030-07-01T09:30:00+02:00"], zone: "Asia/Tokyo")

            let sdk = try await editor.sdk()
            let tokyoStored = try #require(try await sdk.announcements.read(id: tokyo).publishing)
            #expect(tokyoStored.publishAt == (try Self.instant("2030-12-06T23:00:00Z")), "08:00 in Tokyo is 23:00 UTC the day before")
            #expect(tokyoStored.expiresAt == (try Self.instant("2031-01-05T09:30:00Z")))
            let pinEnd = try Self.instant("2030-12-23T15:00:00Z")
            #expect(tokyoStored.pinned && tokyoStored.pinnedUntil == pinEnd)
            #expect(try await sdk.announcements.read(id: lisbon).publishing?.publishAt == (try Self.instant("2030-07-01T08:30:00Z")), "Lisbon is UTC+1 in July")
            #expect(try await sdk.announcements.read(id: explicit).publishing?.publishAt == (try Self.instant("2030-07-01T07:30:00Z")), "an RFC 3339 time keeps its own zone")

            let inTokyo = try await editor.run(["announcements", "show", String(tokyo)], zone: "Asia/Tokyo")
            let inUTC = try await editor.run(["announcements", "show", String(tokyo)], zone: "UTC")
            let jst = try Self.zoneName("Asia/Tokyo", at: try Self.instant("2030-12-06T23:00:00Z"))
            #expect(inTokyo.status == 0, "\(inTokyo.errors)")
            #expect(inTokyo.output.contains("Pinned until 2030-12-24 00:00 \(jst)"), "\(inTokyo.output)")
            #expect(inTokyo.output.contains("Published from 2030-12-07 08:00 \(jst)"), "\(inTokyo.output)")
            #expect(inTokyo.output.contains("Expires 2031-01-05 18:30 \(jst)"), "\(inTokyo.output)")
            #expect(inUTC.output.contains("Published from 2030-12-06 23:00 UTC"), "\(inUTC.output)")
            let lisbonShown = try await editor.run(["announcements", "show", String(lisbon)], zone: "Europe/Lisbon")
            let west = try Self.zoneName("Europe/Lisbon", at: try Self.instant("2030-07-01T08:30:00Z"))
            #expect(lisbonShown.output.contains("Published from 2030-07-01 09:30 \(west)"), "\(lisbonShown.output)")
        }
    }

    @Test("--audience department:NAME and team:ID address it (show names them); --audience none removes it; an empty audience is warned about")
    func audiences() async throws {
        try await withEditor { editor in
            let id = try await editor.create(["--title", "IT and Kwame's team", "--audience", "department:IT", "--audience", "team:9"])
            let sdk = try await editor.sdk()
            #expect(try await sdk.announcements.read(id: id).audience == AnnouncementAudience(departments: ["IT"], teams: [9]))
            let shown = try await editor.run(["announcements", "show", String(id)])
            #expect(shown.output.contains("\nAudience: department IT, team of person 9\n"), "\(shown.output)")
            #expect(!shown.output.contains("Warning"))

            let cleared = try await editor.run(["announcements", "update", String(id), "--audience", "none"])
            #expect(cleared.status == 0, "\(cleared.errors)")
            #expect(try await sdk.announcements.read(id: id).audience == nil)
            #expect(!(try await editor.run(["announcements", "show", String(id)]).output.contains("Audience")))

            _ = try await sdk.announcements.patchUnconditionally(AnnouncementPatch(audience: .value(AnnouncementAudience())), id: id)
            let empty = try await editor.run(["announcements", "show", String(id)])
            #expect(empty.output.contains("Warning: the audience is empty, so only editors and admins see it"), "\(empty.output)")
        }
    }

    @Test("--draft: drafts and list --status draft show it marked [draft], list does not; --publish puts it in the list; scheduled and expired have lists of their own")
    func draftsAndStatusLists() async throws {
        try await withEditor { editor in
            let draft = try await editor.create(["--title", "Budget 2031", "--draft"])
            let scheduled = try await editor.create(["--title", "Next year's rota", "--publish-at", "2030-12-07 08:00"], zone: "Asia/Tokyo")
            let expired = try await editor.create(["--title", "Old notice", "--publish-at", "2001-01-01 00:00", "--expires-at", "2002-01-01 00:00"])

            let drafts = try await editor.run(["announcements", "drafts"])
            #expect(drafts.status == 0, "\(drafts.errors)")
            #expect(drafts.output == "ID  TITLE\n \(draft)  [draft] Budget 2031\nPage 1 of 1 · 1 announcement\n")
            #expect(try await editor.run(["announcements", "list", "--status", "draft"]).output == drafts.output)
            let list = try await editor.run(["announcements", "list"])
            #expect(list.output.hasSuffix("Page 1 of 1 · 6 announcements\n"), "\(list.output)")
            for title in ["Budget 2031", "Next year's rota", "Old notice"] { #expect(!list.output.contains(title), "\(title)") }

            let inTokyo = try await editor.run(["announcements", "list", "--status", "scheduled"], zone: "Asia/Tokyo")
            let jst = try Self.zoneName("Asia/Tokyo", at: try Self.instant("2030-12-06T23:00:00Z"))
            #expect(inTokyo.output.contains(" \(scheduled)  [from 2030-12-07 08:00 \(jst)] Next year's rota\n"), "\(inTokyo.output)")
            #expect(try await editor.run(["announcements", "list", "--status", "scheduled"]).output.contains("[from 2030-12-06 23:00 UTC] Next year's rota"))
            let old = try await editor.run(["announcements", "list", "--status", "expired"])
            #expect(old.output == "ID  TITLE\n \(expired)  [expired] Old notice\nPage 1 of 1 · 1 announcement\n")

            #expect(try await editor.run(["announcements", "update", String(draft), "--publish"]).status == 0)
            let none = try await editor.run(["announcements", "drafts"]).output
            #expect(none.hasPrefix("No announcements.\n") && !none.contains("Budget 2031"), "\(none)")
            #expect(try await editor.run(["announcements", "list"]).output.contains(" \(draft)  Budget 2031\n"))
        }
    }

    @Test("--pin and --important mark the title [pinned] [!] and put it first; --unpin --not-important take both away")
    func pinAndImportant() async throws {
        try await withEditor { editor in
            let id = try await editor.create(["--title", "Fire drill today", "--pin", "--important"])
            let plain = try await editor.create(["--title", "Plain news"])
            let list = try await editor.run(["announcements"])
            #expect(list.status == 0, "\(list.errors)")
            #expect(list.output.hasPrefix("ID  TITLE\n \(id)  [pinned] [!] Fire drill today\n 1  Welcome to the new Brightwater intranet\n"), "\(list.output)")
            #expect(list.output.contains("\n \(plain)  Plain news\n"))
            let shown = try await editor.run(["announcements", "show", String(id)])
            #expect(shown.output.contains("\nIMPORTANT · Pinned\n"), "\(shown.output)")

            #expect(try await editor.run(["announcements", "update", String(id), "--unpin", "--not-important"]).status == 0)
            let after = try await editor.run(["announcements"])
            #expect(after.output.hasPrefix("ID  TITLE\n 1  Welcome"), "\(after.output)")
            #expect(after.output.contains("\n \(id)  Fire drill today\n \(plain)  Plain news\n"), "\(after.output)")
            #expect(!(try await editor.run(["announcements", "show", String(id)]).output.contains("IMPORTANT")))
        }
    }

    @Test("--markdown FILE and a .md body file send Markdown: the server stores an HTML body with the table and keeps the source; show renders it; an HTML body later clears the source")
    func markdownBodies() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-md-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let markdown = "Rooms for **Monday**:\n\n| Team | Room |\n|------|------|\n| IT | Harbour 3 |\n| Sales | ~~Flores~~ Harbour 4 |\n"
        let source = folder.appendingPathComponent("rooms.txt")
        let mdFile = folder.appendingPathComponent("rooms.md")
        let html = folder.appendingPathComponent("plain.html")
        try Data(markdown.utf8).write(to: source)
        try Data(markdown.utf8).write(to: mdFile)
        try Data("<p>Now <em>HTML</em></p>".utf8).write(to: html)
        try await withEditor { editor in
            let viaOption = try await editor.create(["--title", "Rooms", "--markdown", source.path])
            let viaFile = try await editor.create(["--title", "Rooms again", "--body-file", mdFile.path])
            let sdk = try await editor.sdk()
            for id in [viaOption, viaFile] {
                let stored = try await sdk.announcements.read(id: id)
                let body = try #require(stored.body)
                #expect(body.contains("<table>") && body.contains("<th>Room</th>") && body.contains("<td>Harbour 3</td>"), "\(body)")
                #expect(body.contains("<strong>Monday</strong>") && body.contains("<del>Flores</del>"), "\(body)")
                #expect(stored.markdown == markdown)
            }
            let shown = try await editor.run(["announcements", "show", String(viaOption)])
            #expect(shown.status == 0, "\(shown.errors)")
            #expect(shown.output.contains("\nRooms for Monday:\n"), "\(shown.output)")
            #expect(shown.output.contains("\nTeam | Room\nIT | Harbour 3\n"), "\(shown.output)")
            #expect(!shown.output.contains("<") && !shown.output.contains("|---"), "\(shown.output)")

            #expect(try await editor.run(["announcements", "update", String(viaFile), "--body-file", html.path]).status == 0)
            let replaced = try await sdk.announcements.read(id: viaFile)
            #expect(replaced.body == "<p>Now <em>HTML</em></p>" && replaced.markdown == nil)
        }
    }

    @Test("the server's validation errors exit 65 with its message, and nothing is created")
    func serverValidation() async throws {
        try await withEditor { editor in
            let window = try await editor.run(["announcements", "create", "--title", "Backwards", "--publish-at", "2030-12-07 08:00", "--expires-at", "2030-12-01 08:00"])
            #expect(window.status == 65)
            #expect(window.errors == "intranet: the server did not accept the new announcement: expiresAt must be after publishAt\n")
            let early = try await editor.run(["announcements", "create", "--title", "Too early", "--publish-at", "1999-12-31 23:00"])
            #expect(early.status == 65)
            #expect(early.errors.contains("publishAt must be between 2000-01-01T00:00:00Z and 2099-12-31T23:59:59Z"), "\(early.errors)")
            let team = try await editor.run(["announcements", "create", "--title", "Nobody's team", "--audience", "team:99999"])
            #expect(team.status == 65)
            #expect(team.errors.contains("audience.teams"), "\(team.errors)")
            let later = try await editor.run(["announcements", "update", "2", "--publish-at", "2030-01-01 00:00", "--expires-at", "2029-01-01 00:00"])
            #expect(later.status == 65 && later.errors.contains("expiresAt must be after publishAt"), "\(later.errors)")
            #expect(try await editor.run(["announcements"]).output.hasSuffix("Page 1 of 1 · 6 announcements\n"))
            #expect(try await editor.sdk().announcements.read(id: 2).publishing?.publishAt == nil)
        }
    }

    @Test("contradicting or unreadable publishing options are usage errors (64) before any request", arguments: [
        (["announcements", "update", "2", "--pin", "--unpin"], "--pin and --unpin contradict each other"),
        (["announcements", "create", "--title", "T", "--draft", "--publish"], "--draft and --publish contradict each other"),
        (["announcements", "update", "2", "--important", "--not-important"], "--important and --not-important contradict each other"),
        (["announcements", "create", "--title", "T", "--audience", "dept:IT"], "--audience must be department:NAME or team:PERSON-ID"),
        (["announcements", "create", "--title", "T", "--audience", "team:kwame"], "--audience must be department:NAME or team:PERSON-ID"),
        (["announcements", "create", "--title", "T", "--audience", "none", "--audience", "team:9"], "--audience none removes the audience"),
        (["announcements", "create", "--title", "T", "--publish-at", "next Monday"], "--publish-at must be like \"2026-12-07 08:00\""),
        (["announcements", "create", "--title", "T", "--expires-at", "2030-02-30 08:00"], "--expires-at must be like"),
        (["announcements", "update", "2", "--pinned-until", "07/12/2030 08:00"], "--pinned-until must be like"),
        (["announcements", "create", "--title", "T", "--unpin"], "--unpin and --not-important change an existing announcement"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        // Nothing listens on port 9: a request would exit 69, not 64.
        let result = try await BuiltBinary.run(arguments + ["--server", "http://127.0.0.1:9"], environment: ["TZ": "Europe/Lisbon"])
        #expect(result.status == 64, "\(result.errors)")
        #expect(result.errors.contains(message), "\(result.errors)")
        #expect(result.output.isEmpty)
    }
}
