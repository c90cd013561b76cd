import ArgumentParser
import Foundation
import IntranetAPI
import IntranetServer

extension UserRole: ExpressibleByArgument {}

/// `intranet-server users …`: manages accounts straight in the database.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Create, list, change and delete user accounts.",
        subcommands: [Create.self, List.self, SetRole.self, Delete.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; the password is read from standard input (not echoed on a terminal).")

        @Option(help: "1 to 64 letters, digits, '.', '_' or '-'.") var username: String
        @Option(help: "reader, editor or admin.") var role: UserRole
        @Option(name: .customLong("display-name"), help: "The name people see (default: the username).") var displayName: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let password = try PasswordInput.read(prompt: "Password for \(username): ")
            try await withAdminConsole(database) { console in
                let user = try await console.createUser(username: username, displayName: displayName, role: role, password: password)
                print("Created \(user.role.rawValue) \(user.username) (id \(user.id)).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every account.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdminConsole(database) { console in
                let users = try await console.listUsers()
                guard !users.isEmpty else {
                    print("No accounts yet. Create one with: intranet-server users create --username NAME --role admin")
                    return
                }
                let width = users.map(\.username.count).max() ?? 8
                for user in users {
                    let name = user.username.padding(toLength: max(width, 8), withPad: " ", startingAt: 0)
                    print("\(String(user.id).leftPadded(to: 4))  \(name)  \(user.role.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(user.displayName)")
                }
            }
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-role", abstract: "Change an account's role.")
        @Argument(help: "The username.") var username: String
        @Argument(help: "reader, editor or admin.") var role: UserRole
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdminConsole(database) { console in
                let user = try await console.setRole(username: username, role: role)
                print("\(user.username) is now \(user.role.rawValue).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account and end its sessions.")
        @Argument(help: "The username.") var username: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdminConsole(database) { console in
                try await console.deleteUser(username: username)
                print("Deleted \(username).")
            }
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
