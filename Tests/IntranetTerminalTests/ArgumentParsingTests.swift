import ArgumentParser
import Testing
@testable import IntranetTerminal

@Suite("Argument parsing and help text")
struct ArgumentParsingTests {
    @Test("announcements with no subcommand is the list command with page 1 and version 3.0")
    func defaultsToList() throws {
        let command = try IntranetCommand.parseAsRoot(["announcements"])

        let list = try #require(command as? ListCommand)
        #expect(list.page == nil)
        #expect(list.all == false)
        #expect(list.global.apiVersion == .v3)
        #expect(list.global.output == .table)
    }

    @Test("global options are accepted after the subcommand and its argument")
    func globalOptionsAfterArguments() throws {
        let command = try IntranetCommand.parseAsRoot([
            "announcements", "show", "2", "--api-version", "1.0", "--server", "http://intranet.example:9000",
            "--output", "json", "-v",
        ])

        let show = try #require(command as? ShowCommand)
        #expect(show.id == 2)
        #expect(show.global.apiVersion == .v1)
        #expect(show.global.server == "http://intranet.example:9000")
        #expect(show.global.output == .json)
        #expect(show.global.verbose)
    }

    @Test("paging options parse into the list command")
    func pagingOptions() throws {
        let command = try IntranetCommand.parseAsRoot(["announcements", "--page", "3", "--per-page", "5"])

        let list = try #require(command as? ListCommand)
        #expect(list.page == 3)
        #expect(list.perPage == 5)
    }

    @Test("usage errors exit 64 with ArgumentParser's message on stderr and nothing on stdout", arguments: [
        (["announcements", "--api-version", "4.0"], "4.0"),
        (["announcements", "--output", "xml"], "xml"),
        (["announcements", "--all", "--page", "2"], "--all shows every page"),
        (["announcements", "--per-page", "0"], "--per-page must be between 1 and 100"),
        (["announcements", "show"], "Missing expected argument '<id>'"),
        (["announcements", "show", "two"], "two"),
        (["announcements", "update", "7"], "nothing to change"),
        (["announcements", "update", "7", "--clear-body", "--body", "<p>x</p>"], "--clear-body removes the body"),
        (["announcements", "create", "--title", "T", "--body", "x", "--body-file", "f"], "give one of --body, --body-file and --markdown"),
        (["announcements", "create"], "Missing expected argument '--title <title>'"),
        (["announcements", "delete"], "Missing expected argument '<id>'"),
    ])
    func usageErrors(arguments: [String], expected: String) async {
        let result = await runIntranet(arguments)

        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains(expected), "stderr: \(result.errors)")
    }

    @Test("a server that is not an http URL is a usage error naming it")
    func badServer() async {
        let result = await runIntranet(["announcements", "--server", "ftp://files.example"])

        #expect(result.status == 64)
        #expect(result.errors == "intranet: the server must be an http:// or https:// URL, not “ftp://files.example”\n")
    }

    @Test("--help lists the commands, the global options and every exit status, on stdout with status 0")
    func rootHelp() async {
        let result = await runIntranet(["--help"])

        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
        #expect(result.output.contains("USAGE: intranet <subcommand>"))
        #expect(result.output.contains("announcements"))
        #expect(result.output.contains("$INTRANET_SERVER"))
        for line in ["0   success", "64  usage error", "65  validation", "66  not found",
                     "69  the server cannot be reached", "75  conflict", "77  unauthorized"] {
            #expect(result.output.contains(line), "missing: \(line)")
        }
    }

    @Test("announcements --help names the subcommands and the exit statuses")
    func groupHelp() async {
        let result = await runIntranet(["announcements", "--help"])

        #expect(result.status == 0)
        for name in ["list", "show", "create", "update", "delete", "EXIT STATUS", "69  the server cannot be reached"] {
            #expect(result.output.contains(name), "missing: \(name)")
        }
    }

    @Test("a subcommand's help documents its options and the global ones, with their defaults")
    func subcommandHelp() async {
        let list = await runIntranet(["announcements", "list", "--help"])
        let update = await runIntranet(["announcements", "update", "--help"])

        for option in ["--page", "--per-page", "--all", "--server <url>", "--api-version <version>",
                       "default: 2.0", "--output <format>", "default: table", "--verbose"] {
            #expect(list.output.contains(option), "missing: \(option)")
        }
        for option in ["--title", "--body <html>", "--body-file <file>", "--clear-body", "--if-match <etag>"] {
            #expect(update.output.contains(option), "missing: \(option)")
        }
    }
}
