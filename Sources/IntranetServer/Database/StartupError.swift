import Foundation

/// The database could not be opened or migrated at startup.
///
/// Its description names the database without its password, so it is safe to print.
public struct StartupError: Error, CustomStringConvertible, Sendable {
    /// The database, as it is safe to show.
    public var database: String
    /// What the driver reported.
    public var reason: String

    init(storage: AppConfiguration.Storage, underlying: any Error) {
        database = storage.redactedDescription
        reason = String(String(reflecting: underlying).prefix(400))
    }

    /// "cannot open the database …: reason".
    public var description: String {
        "cannot open the database \(database): \(reason)"
    }
}

extension AppConfiguration.Storage {
    /// Where the data lives, with any password replaced by `***`.
    public var redactedDescription: String {
        switch self {
        case .sqliteFile(let path):
            return "sqlite:\(path)"
        case .sqliteInMemory:
            return "sqlite (temporary)"
        case .postgres(let url, _):
            guard var components = URLComponents(string: url) else { return "postgres (unparsable URL)" }
            if components.password != nil {
                components.password = "***"
            }
            return components.string ?? "postgres"
        }
    }
}
