import Foundation
import IntranetClient
import Testing

/// The built `intranet` binary, run as a process, signing in and managing accounts on a real
/// server, and signing its requests for a server that wants them.
@Suite("Sessions, users and signed requests against a live server")
struct AccountEndToEndTests {
    /// Runs the binary against `server` with its own config directory.
    private struct Shell {
        let server: String
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-e2e-\(UUID().uuidString)")

        func callAsFunction(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> RunResult {
            try await BuiltBinary.run(arguments + ["--server", server], input: Data(input.utf8),
                                      environment: ["XDG_CONFIG_HOME": home.path].merging(environment) { _, new in new })
        }
    }

    @Test("an admin signs in, manages users, a reader is refused with 77, and after logout whoami is 77")
    func adminManagesUsers() async throws {
        try await withLiveAccountServer { live in
            let server = live.url.absoluteString
            let admin = Shell(server: server)
            let reader = Shell(server: server)
            defer { for shell in [admin, reader] { try? FileManager.default.removeItem(at: shell.home) } }

            let login = try await admin(["login", "--username", LiveAdmin.username, "--password-stdin"], input: LiveAdmin.password + "\n")
            let sessionFile = admin.home.appendingPathComponent("intranet/sessions").appendingPathComponent(FileSessionStore.fileName(for: live.url))
            let mode = try FileManager.default.attributesOfItem(atPath: sessionFile.path)[.posixPermissions] as? Int
            let stored = try String(contentsOf: sessionFile, encoding: .utf8)
            let whoami = try await admin(["whoami"])
            let created = try await admin(["users", "create", "--username", "rita", "--role", "editor", "--display-name", "Rita Reader", "--password-stdin"],
                                          input: "rita's long password\n")
            let taken = try await admin(["users", "create", "--username", "RITA", "--role", "reader", "--password-stdin"], input: "another long one\n")
            let invalid = try await admin(["users", "create", "--username", "rita2", "--role", "reader", "--password-stdin"], input: "short\n")
            let demoted = try await admin(["users", "set-role", "rita", "reader"])
            let listed = try await admin(["users", "list"])
            let lastAdmin = try await admin(["users", "set-role", "admin", "editor"])

            let readerLogin = try await reader(["login", "--username", "rita", "--password-stdin"], input: "rita's long password")
            let refused = try await reader(["users", "list"])
            let refusedDelete = try await reader(["users", "delete", "editor", "--yes"])
            let deleted = try await admin(["users", "delete", "rita", "--yes"])
            let readerAfterDelete = try await reader(["whoami"])
            let logout = try await admin(["logout"])
            let afterLogout = try await admin(["whoami"])

            let signInHint = "intranet login --server \(server)\n"
            #expect(login.status == 0 && login.output == "Signed in to \(server) as Ada Admin (admin, admin).\n")
            #expect(mode == 0o600)
            #expect(stored.contains(#""token""#) && !stored.contains(LiveAdmin.password))
            #expect(whoami.status == 0 && whoami.output == "Ada Admin (admin, admin)\n")
            #expect(created.status == 0 && created.output == "Created user 3: Rita Reader (rita, editor).\n")
            #expect(taken.status == 75)
            #expect(taken.errors.hasPrefix("intranet: the new user conflicts with the server's state: "))
            #expect(invalid.status == 65)
            #expect(invalid.errors.hasPrefix("intranet: the server did not accept the new user: password "))
            #expect(demoted.status == 0 && demoted.output == "rita is now reader.\n")
            #expect(listed.status == 0)
            #expect(listed.output == """
                ID  USERNAME  ROLE    DISPLAY NAME
                 1  editor    editor  Eddie Editor
                 2  admin     admin   Ada Admin
                 3  rita      reader  Rita Reader

                """)
            #expect(lastAdmin.status == 75)
            #expect(lastAdmin.errors.hasPrefix("intranet: user admin conflicts with the server's state: "))
            #expect(readerLogin.status == 0)
            #expect(refused.status == 77 && refused.output.isEmpty)
            #expect(refused.errors.hasPrefix("intranet: managing users needs an admin's session (403"))
            #expect(refusedDelete.status == 77)
            #expect(deleted.status == 0 && deleted.output == "Deleted user rita.\n")
            #expect(readerAfterDelete.status == 77 && readerAfterDelete.errors.hasSuffix(signInHint))
            #expect(logout.status == 0 && logout.output == "Signed out.\n")
            #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
            #expect(afterLogout.status == 77)
            #expect(afterLogout.errors == "intranet: not signed in, or the session has ended (401) — sign in with: \(signInHint)")
            for result in [login, whoami, created, taken, invalid, listed, readerLogin, refused, deleted, logout] {
                #expect(!(result.output + result.errors).contains("long password") && !(result.output + result.errors).contains(LiveAdmin.password))
            }
        }
    }

    @Test("a server requiring signatures refuses unsigned runs with 77 and serves signed ones")
    func signedRequests() async throws {
        try await withLiveAccountServer(requiringSignature: true) { live in
            let (appID, secret) = try await live.registerApp("intranet CLI tests")
            let shell = Shell(server: live.url.absoluteString)
            defer { try? FileManager.default.removeItem(at: shell.home) }
            let signing = ["--app-id", appID, "--app-secret", secret]

            let unsigned = try await shell(["announcements"])
            let wrongSecret = try await shell(["announcements", "--app-id", appID, "--app-secret", "not-the-secret"])
            let signed = try await shell(["announcements"] + signing)
            let fromEnvironment = try await shell(["announcements", "show", "2"], environment: ["INTRANET_APP_ID": appID, "INTRANET_APP_SECRET": secret])
            let unsignedLogin = try await shell(["login", "--username", LiveEditor.username, "--password-stdin"], input: LiveEditor.password)
            let login = try await shell(["login", "--username", LiveEditor.username, "--password-stdin"] + signing, input: LiveEditor.password)
            let whoami = try await shell(["whoami", "--verbose"] + signing)
            let halfSigned = try await shell(["whoami", "--app-id", appID])

            #expect(unsigned.status == 77 && unsigned.output.isEmpty)
            #expect(unsigned.errors.hasPrefix("intranet: the server wants requests signed by a registered app (401: "))
            #expect(unsigned.errors.hasSuffix(" — sign with --app-id and --app-secret, or INTRANET_APP_ID and INTRANET_APP_SECRET\n"))
            #expect(wrongSecret.status == 77 && wrongSecret.errors.contains("signed by a registered app"))
            #expect(signed.status == 0 && signed.errors.isEmpty)
            #expect(signed.output.hasPrefix("ID  TITLE\n 1  Welcome to the new Brightwater intranet\n"))
            #expect(fromEnvironment.status == 0 && fromEnvironment.output.hasPrefix("Office move: Harbour Building"))
            #expect(unsignedLogin.status == 77 && unsignedLogin.errors.contains("signed by a registered app"))
            #expect(login.status == 0)
            #expect(whoami.status == 0 && whoami.output == "Eddie Editor (editor, editor)\n")
            #expect(halfSigned.status == 64)
            for result in [unsigned, wrongSecret, signed, login, whoami, halfSigned] {
                #expect(!(result.output + result.errors).contains(secret))
            }
        }
    }
}
