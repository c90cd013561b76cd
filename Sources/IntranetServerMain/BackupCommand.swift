import ArgumentParser
import Foundation
import IntranetServer

/// `intranet-server backup FILE`: a consistent copy of the SQLite database, taken while it serves.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite database to a new FILE while servers keep using it (SQLite's online backup).",
        discussion: """
            The copy is the database as of one moment, checked for integrity and readable by its \
            owner only; FILE must not exist. To restore, stop the server and put the copy in place \
            of the database file (docs/operations.md, Backups). For PostgreSQL use pg_dump.
            """
    )

    @Argument(help: "The new file to write.") var file: String
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        do {
            print(try DatabaseBackup.copy(try database.configuration().storage, to: file))
        } catch let error as BackupError {
            FileHandle.standardError.write(Data("intranet-server: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
