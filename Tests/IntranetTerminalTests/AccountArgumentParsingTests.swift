import ArgumentParser
import IntranetAPI
import Testing
@testable import IntranetTerminal

@Suite("Parsing the session, users and signing arguments")
struct AccountArgumentParsingTests {
    @Test("users alone is users list; whoami takes the global options")
    func usersDefaultsToList() throws {
        let list = try IntranetCommand.parseAsRoot(["users"])
        let whoami = try #require(try IntranetCommand.parseAsRoot(["whoami", "--server", "http://a.example", "--output", "json"]) as? WhoamiCommand)

        #expect(list is UsersListCommand)
        #expect(whoami.global.server == "http://a.example")
        #expect(whoami.global.output == .json)
    }

    @Test("users create parses user name, role, display name and --password-stdin")
    func create() throws {
        let command = try IntranetCommand.parseAsRoot([
            "users", "create", "--username", "lea", "--role", "editor", "--display-name", "Léa M", "--password-stdin",
        ])

        let create = try #require(command as? UsersCreateCommand)
        #expect(create.username == "lea")
        #expect(create.role == .editor)
        #expect(create.displayName == "Léa M")
        #expect(create.passwordStdin)
    }

    @Test("users create without --role, or with an unknown role, is a usage error (64)")
    func createNeedsRole() {
        for arguments in [["users", "create", "--username", "lea"], ["users", "create", "--username", "lea", "--role", "owner"]] {
            #expect(throws: (any Error).self) { try IntranetCommand.parseAsRoot(arguments) }
            do {
                _ = try IntranetCommand.parseAsRoot(arguments)
            } catch {
                #expect(IntranetCommand.exitCode(for: error).rawValue == 64)
            }
        }
    }

    @Test("set-role takes a user name and a role; delete a user name and --yes")
    func setRoleAndDelete() throws {
        let setRole = try #require(try IntranetCommand.parseAsRoot(["users", "set-role", "zoe", "admin"]) as? UsersSetRoleCommand)
        let delete = try #require(try IntranetCommand.parseAsRoot(["users", "delete", "zoe", "-y"]) as? UsersDeleteCommand)

        #expect(setRole.username == "zoe")
        #expect(setRole.role == .admin)
        #expect(delete.username == "zoe")
        #expect(delete.yes)
    }

    @Test("--app-id and --app-secret are global options, accepted after any subcommand")
    func signingOptions() throws {
        let show = try #require(try IntranetCommand.parseAsRoot(["announcements", "show", "2", "--app-id", "app_1", "--app-secret", "s"]) as? ShowCommand)
        let users = try #require(try IntranetCommand.parseAsRoot(["users", "list", "--app-id", "app_1", "--app-secret", "s"]) as? UsersListCommand)

        #expect(show.global.appId == "app_1")
        #expect(show.global.appSecret == "s")
        #expect(users.global.appId == "app_1")
        #expect(try show.global.signingKey(environment: [:])?.appID == "app_1")
        #expect(try GlobalOptions.parse([]).signingKey(environment: [:]) == nil)
    }

    @Test("the help names the new commands and the signing options")
    func help() {
        let root = IntranetCommand.helpMessage(columns: 200)
        let users = IntranetCommand.helpMessage(for: UsersCreateCommand.self, columns: 200)

        #expect(root.contains("whoami") && root.contains("users") && root.contains("--app-id"))
        #expect(users.contains("--password-stdin") && users.contains("--app-secret <secret>"))
    }
}
