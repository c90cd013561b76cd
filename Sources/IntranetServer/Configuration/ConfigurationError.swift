import Foundation

extension AppConfiguration.Storage {
    /// Reads `postgres://…` / `postgresql://…` or `sqlite:PATH`.
    public init(databaseURL url: String) throws {
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(url: url)
        } else if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else {
                throw ConfigurationError(variable: "DATABASE_URL", message: "sqlite: needs a file path, e.g. sqlite:intranet.sqlite")
            }
            self = .sqliteFile(path: path)
        } else {
            throw ConfigurationError(variable: "DATABASE_URL", message: "must start with postgres://, postgresql:// or sqlite:")
        }
    }
}

/// A setting that cannot be used, with the variable or flag it came from.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// The environment variable or flag that holds the bad value.
    public var variable: String
    /// What is wrong with it.
    public var message: String

    /// Creates a configuration error.
    public init(variable: String, message: String) {
        self.variable = variable
        self.message = message
    }

    /// `VARIABLE message`, for people.
    public var description: String { "\(variable) \(message)" }

    /// Parses `true` or `false` (also `1`/`0`, `yes`/`no`).
    public static func flag(_ text: String, from variable: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ConfigurationError(variable: variable, message: "must be true or false, not '\(text)'")
        }
    }

    /// Parses a TCP port number.
    public static func port(_ text: String, from variable: String) throws -> Int {
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw ConfigurationError(variable: variable, message: "must be a port number from 0 to 65535, not '\(text)'")
        }
        return port
    }
}

extension AppConfiguration {
    /// The host names of `EMBED_HOSTS`: letters, digits, dots and hyphens only, at most 50.
    ///
    /// - Throws: ``ConfigurationError`` naming the first bad entry.
    static func embedHosts(_ text: String) throws -> Set<String> {
        let hosts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        for host in hosts {
            let allowed = host.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            guard allowed, host.contains("."), host.count <= 253, !host.hasPrefix("."), !host.hasSuffix(".") else {
                throw ConfigurationError(variable: "EMBED_HOSTS", message: "must be host names separated by commas, e.g. www.youtube-nocookie.com; '\(host.prefix(60))' is not one")
            }
        }
        guard hosts.count <= 50 else {
            throw ConfigurationError(variable: "EMBED_HOSTS", message: "may name at most 50 hosts")
        }
        return Set(hosts)
    }
}
