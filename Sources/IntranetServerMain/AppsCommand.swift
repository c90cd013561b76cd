import ArgumentParser
import Foundation
import IntranetServer

/// `intranet-server apps create NAME`: registers an app that signs its requests.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Register apps that sign their requests (INTRANET_REQUIRE_SIGNATURE=true).",
        subcommands: [Create.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register an app and print its id and secret, once.")
        @Argument(help: "A name for people, e.g. \"iOS app 3.2\".") var name: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdminConsole(database) { console in
                let app = try await console.registerApp(name: name)
                print("app id: \(app.appID)")
                print("secret: \(app.secret)")
                print("Store the secret in the app now: it is not shown again.")
            }
        }
    }
}
