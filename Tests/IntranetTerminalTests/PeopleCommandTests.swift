import Foundation
import Testing

/// The built `intranet` binary's people commands against a live, seeded server: tables,
/// cards and the org tree fitted to the width, and editors' changes with the same errors and
/// exit statuses as announcements.
@Suite("The intranet binary: people, cards and the org chart")
struct PeopleCommandTests {
    private struct Shell {
        let server: String
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-people-\(UUID().uuidString)")

        func callAsFunction(_ arguments: [String], input: String = "", columns: Int = 80) async throws -> RunResult {
            try await BuiltBinary.run(arguments + ["--server", server], input: Data(input.utf8),
                                      environment: ["XDG_CONFIG_HOME": home.path, "COLUMNS": String(columns)])
        }
    }

    @Test("search is a table, show is a card, org draws the tree under someone within the terminal's width")
    func reading() async throws {
        try await withLiveAccountServer { live in
            let intranet = Shell(server: live.url.absoluteString)
            let heads = try await intranet(["people", "--search", "HEAD OF"], columns: 70)
            #expect(heads.status == 0, "\(heads.errors)")
            let lines = heads.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("ID  NAME") == true)
            #expect(lines.count == 7 && lines.last == "Page 1 of 1 · 5 people matching “HEAD OF”")
            #expect(lines.contains { $0.hasPrefix(" 3  Zoë Lefèvre") && $0.hasSuffix("IT") })

            let card = try await intranet(["people", "show", "3"])
            #expect(card.status == 0)
            #expect(card.output == """
                Zoë Lefèvre
                Head of IT · IT

                E-mail    zoe.lefevre@brightwater.example
                Phone     +351 21 555 0120
                Location  Harbour Building, floor 3
                Manager   Margit Olsen, Chief Executive Officer (1)
                Reports   Kwame Mensah, Security Officer (9)
                          Lena Fischer, IT Service Manager (10)
                ID        3

                """)

            let tree = try await intranet(["people", "org", "3"], columns: 50)
            #expect(tree.status == 0)
            #expect(tree.output == """
                Zoë Lefèvre · Head of IT (3)
                ├── Kwame Mensah · Security Officer (9)
                │   ├── Ahmed Haddad · Security Engineer (20)
                │   └── Julia Santos · Security Analyst (21)
                └── Lena Fischer · IT Service Manager (10)
                    └── Pieter de Vries · Service Desk Lead (22)
                        ├── Ana Ferreira · Service Desk Analyst (…
                        └── Tom Walsh · Service Desk Analyst (32)

                """)
            let everyone = try await intranet(["people", "org"], columns: 40)
            #expect(everyone.output.split(separator: "\n").count == 40)
            #expect(everyone.output.split(separator: "\n").allSatisfy { $0.count <= 40 })
            #expect(try await intranet(["people", "org", "999"]).status == 66)
            #expect(try await intranet(["people", "show", "999"]).status == 66)
            let spearal = try await intranet(["people", "org", "--wire", "spearal"], columns: 40)
            #expect(spearal.output == everyone.output, "the same tree from the Spearal graph")
        }
    }

    @Test("editors create, update and delete; loops are 65, orphaned reports 75, signed out 77")
    func editing() async throws {
        try await withLiveAccountServer { live in
            let intranet = Shell(server: live.url.absoluteString)
            let signedOut = try await intranet(["people", "create", "--name", "Nova", "--email", "nova@brightwater.example", "--job-title", "Analyst", "--department", "IT"])
            #expect(signedOut.status == 77)
            let login = try await intranet(["login", "--username", LiveEditor.username, "--password-stdin"], input: LiveEditor.password + "\n")
            #expect(login.status == 0, "\(login.errors)")

            let created = try await intranet([
                "people", "create", "--name", "Nova Newhire", "--email", "nova@brightwater.example", "--job-title", "Analyst",
                "--department", "IT", "--manager", "31", "--phone", "+351 21 555 0188",
            ])
            #expect(created.status == 0, "\(created.errors)")
            let id = try #require(Int(created.output.trimmingCharacters(in: .whitespacesAndNewlines)))
            let duplicate = try await intranet(["people", "create", "--name", "Nova Again", "--email", "NOVA@brightwater.example", "--job-title", "Analyst", "--department", "IT"])
            #expect(duplicate.status == 65)
            #expect(duplicate.errors.contains("email") && duplicate.errors.contains("Nova Newhire"))

            let loop = try await intranet(["people", "update", "3", "--manager", String(id)])
            #expect(loop.status == 65)
            #expect(loop.errors.contains("Zoë Lefèvre (#3) → Nova Newhire (#\(id)) → Ana Ferreira (#31)"))
            let moved = try await intranet(["people", "update", String(id), "--manager", "none", "--phone", ""])
            #expect(moved.status == 0 && moved.output == "Updated person \(id) (Nova Newhire).\n")
            let card = try await intranet(["people", "show", String(id)])
            #expect(card.output.contains("Manager  none (top of the organisation)") && !card.output.contains("Phone"))
            #expect(try await intranet(["people", "update", "3"]).status == 64, "nothing to change is a usage error")

            let orphans = try await intranet(["people", "delete", "22", "--yes"])
            #expect(orphans.status == 75)
            #expect(orphans.errors.contains("Ana Ferreira (#31)") && orphans.errors.contains("reassignTo"))
            let reassigned = try await intranet(["people", "delete", "22", "--reassign-to", "10", "--yes"])
            #expect(reassigned.status == 0 && reassigned.output == "Deleted person 22 (Pieter de Vries).\n")
            let lena = try await intranet(["people", "show", "10"])
            #expect(lena.output.contains("Ana Ferreira, Service Desk Analyst (31)"))
            let noTerminal = try await intranet(["people", "delete", String(id)])
            #expect(noTerminal.status == 64, "without a terminal, deleting needs --yes")
        }
    }
}
