import ArgumentParser
import Foundation
import RESTRepository

/// `intranet cache`: what is kept on this machine for reading offline, and forgetting it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the answers kept on this machine for reading offline.",
        discussion: """
            Every answer read is kept in $XDG_CACHE_HOME/intranet (or ~/.cache/intranet), one \
            store for all servers, filed per server, API version, format and signed-in user, \
            at most 32 MiB (the least recently used go first). Signing out forgets that user's \
            answers. --offline reads only from it; when a server cannot be reached, a kept \
            answer is shown with a notice on standard error.
            """,
        subcommands: [CacheInfoCommand.self, CacheClearCommand.self])
}

/// `intranet cache info`: the store's path, entries and size.
struct CacheInfoCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show where answers are kept, how many and how large.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let info = try CacheInfoCommand.store(context).info
        if global.output == .json {
            let object: [String: Any] = [
                "path": info.fileURL.path, "entries": info.entries, "bytes": info.bytes,
                "fileBytes": info.fileBytes, "maximumBytes": info.maximumBytes,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            await context.io.write(String(decoding: data, as: UTF8.self) + "\n")
            return
        }
        await context.io.write("""
            path      \(info.fileURL.path)
            entries   \(info.entries)
            size      \(Self.size(info.bytes)) of at most \(Self.size(info.maximumBytes)) (\(Self.size(info.fileBytes)) on disk)

            """)
    }

    /// The store in the cache directory.
    ///
    /// - Throws: a usage failure when neither `XDG_CACHE_HOME` nor `HOME` is set.
    static func store(_ context: TerminalContext) throws -> ResponseStore {
        guard let store = CommandSession.openStore(context: context, notices: StoreNotices()) else {
            throw TerminalFailure.usage("answers are kept in $XDG_CACHE_HOME/intranet or ~/.cache/intranet, but neither XDG_CACHE_HOME nor HOME is set")
        }
        return store
    }

    /// A byte count for people.
    static func size(_ bytes: Int) -> String {
        switch bytes {
        case ..<1024: "\(bytes) B"
        case ..<(1 << 20): String(format: "%.1f kB", Double(bytes) / 1024)
        default: String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
        }
    }
}

/// `intranet cache clear`: forgets every kept answer.
struct CacheClearCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Forget every answer kept on this machine.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let store = try CacheInfoCommand.store(context)
        let before = store.info
        store.removeAll()
        let noun = before.entries == 1 ? "answer" : "answers"
        await context.io.write("Forgot \(before.entries) kept \(noun) (\(CacheInfoCommand.size(before.bytes))) in \(before.fileURL.path)\n")
    }
}
