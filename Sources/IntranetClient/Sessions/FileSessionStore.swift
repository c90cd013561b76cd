import Crypto
import Foundation
import IntranetAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``SessionStore`` in a JSON file that only its owner may read (mode 0600), for
/// command-line tools that stay signed in between runs.
///
/// The file is written to a temporary file created 0600 in the same directory and renamed over
/// the old one, so a reader sees the old session or the new one, never half of either, and the
/// token is never readable by others, not even for a moment. A missing parent directory is
/// created with mode 0700. A corrupt or unreadable file reads as signed out.
///
/// ```swift
/// let store = FileSessionStore(serverURL: URL(string: "http://127.0.0.1:8080")!)
/// let intranet = IntranetClient(baseURL: server, configuration: .init(sessionStore: store))
/// ```
public struct FileSessionStore: SessionStore {
    /// The session file.
    public let fileURL: URL

    /// Creates a store keeping its session in `fileURL`.
    ///
    /// - Parameter fileURL: the file; its directory is created (0700) on the first save.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Creates a store for one server, in a file of `directory` named after the server URL,
    /// so each server keeps its own session.
    ///
    /// - Parameters:
    ///   - serverURL: the server's base URL.
    ///   - directory: where session files live (``defaultDirectory(environment:)`` by default).
    public init(serverURL: URL, directory: URL = FileSessionStore.defaultDirectory()) {
        self.init(fileURL: directory.appendingPathComponent(Self.fileName(for: serverURL)))
    }

    /// The user's session directory: `$XDG_CONFIG_HOME/intranet/sessions`, or
    /// `~/.config/intranet/sessions` when `XDG_CONFIG_HOME` is unset or not absolute.
    ///
    /// - Parameter environment: the environment to read (the process's by default).
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        let configHome: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            configHome = home.appendingPathComponent(".config", isDirectory: true)
        }
        return configHome.appendingPathComponent("intranet/sessions", isDirectory: true)
    }

    /// The file name for a server: its host and port, readable, then a hash of the whole
    /// normalised URL (scheme, host, port, path), e.g. `127.0.0.1_8080-3f2a….json`.
    ///
    /// - Parameter serverURL: the server's base URL; a trailing slash makes no difference.
    public static func fileName(for serverURL: URL) -> String {
        var text = serverURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        let components = URLComponents(string: text)
        let host = (components?.host ?? "server").lowercased()
        let port = components?.port.map(String.init) ?? (components?.scheme ?? "default")
        let readable = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        let digest = SHA256.hash(data: Data(text.lowercased().utf8))
        let hash = digest.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
        return "\(readable)_\(port)-\(hash).json"
    }

    /// The session in the file, or `nil` when the file is missing, unreadable or corrupt.
    public func load() async -> Session? {
        guard let data = try? Data(contentsOf: fileURL) else { return nil }
        return try? IntranetJSON.decoder().decode(Session.self, from: data)
    }

    /// Writes the session atomically, readable by its owner only.
    ///
    /// - Throws: a `POSIXError` or `CocoaError` when the directory or file cannot be written.
    public func save(_ session: Session) async throws {
        let data = try IntranetJSON.encoder().encode(session)
        let directory = fileURL.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try Self.writeOwnerOnly(data, to: temporary.path)
            guard rename(temporary.path, fileURL.path) == 0 else { throw Self.posixError() }
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    /// Deletes the file; a missing file is fine.
    ///
    /// - Throws: a `POSIXError` when the file exists but cannot be deleted.
    public func clear() async throws {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else { throw Self.posixError() }
    }

    /// Creates `path` with mode 0600 (never wider, whatever the umask) and writes `data`.
    private static func writeOwnerOnly(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw posixError() }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw posixError() }
        try data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw posixError()
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw posixError() }
    }

    private static func posixError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
