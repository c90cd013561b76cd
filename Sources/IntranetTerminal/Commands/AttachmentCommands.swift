import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient

/// `intranet attach ID FILE…`: uploads files to an announcement (editors).
struct AttachCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach files to an announcement, in the order given (editors).",
        discussion: """
            Each file is sent as it is, read from disk as it goes; the server reads its type \
            from its bytes, and serves images cleaned of their metadata, with smaller variants. \
            On a terminal a bar shows each upload; otherwise standard error gets a few plain \
            lines. Each attachment is described as it is stored; --output json prints the \
            server's description of each, one per line. Every file is checked before the first \
            is sent; a file the server refuses stops the rest.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    @Argument(help: "The files to attach.")
    var files: [String]

    @Option(help: "The name shown and offered for download (one file only; the file's own name by default).")
    var name: String?

    func validate() throws {
        if id < 1 { throw ValidationError("the id must be 1 or more") }
        if files.isEmpty { throw ValidationError("name at least one file to attach") }
        if name != nil, files.count > 1 { throw ValidationError("--name names one file; attach several without it") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let uploads = try files.map { path in (path: path, url: URL(fileURLWithPath: path), size: try Self.readableSize(of: path)) }
        for upload in uploads {
            let shownName = name ?? upload.url.lastPathComponent
            let progress = UploadProgressDisplay(name: shownName, total: upload.size, context: context)
            let attachment: AttachmentDescription
            do {
                attachment = try await session.client.attachments.upload(upload.url, to: id, name: name, progress: progress.sent)
            } catch {
                await progress.finish()
                await session.writeNotices()
                throw failure(error, file: upload.path, server: session.serverURL)
            }
            await progress.finish()
            if session.printsRaw {
                try await session.writeRaw(await session.recorder.lastBody)
            } else {
                await session.io.write("Attached \(attachment.name) to announcement \(id): \(Self.summary(of: attachment))\n")
            }
        }
    }

    /// `attachment 12, image/png, 48.1 kB, 900×600`.
    static func summary(of attachment: AttachmentDescription) -> String {
        var parts = ["attachment \(attachment.id)", AttachmentTable.type(of: attachment), ByteCount.format(Int64(attachment.size))]
        let pixels = AttachmentTable.pixels(of: attachment)
        if !pixels.isEmpty { parts.append(pixels) }
        return parts.joined(separator: ", ")
    }

    /// The size of a regular file this process can read.
    ///
    /// - Throws: a ``TerminalFailure`` (66) naming the file otherwise.
    static func readableSize(of path: String) throws -> Int64 {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, manager.isReadableFile(atPath: path),
              let size = (try? manager.attributesOfItem(atPath: path)[.size]) as? NSNumber
        else {
            throw TerminalFailure(.notFound, "cannot read \(path)")
        }
        return size.int64Value
    }

    /// What an upload's failure says: the file for what the server found wrong with it, the
    /// announcement for the rest.
    private func failure(_ error: any Error, file: String, server: URL) -> TerminalFailure {
        let detail = (error as? RepositoryError)?.problem?.detail
        switch error as? RepositoryError {
        case .unprocessable(_, let fieldErrors)?:
            let reason = fieldErrors.isEmpty ? (detail ?? "not a file it takes") : fieldErrors.map { "\($0.field) \($0.message)" }.joined(separator: "; ")
            return TerminalFailure(.validation, "the server did not accept \(file): \(reason)")
        case .unexpectedStatus(let details)? where details.status.code == 413:
            return TerminalFailure(.validation, "the server did not accept \(file): \(detail ?? "it is too large")")
        case .server(let details)? where details.status.code == 507:
            return TerminalFailure(.failure, "the server has no room for \(file) (507\(detail.map { ": \($0)" } ?? ""))")
        case .localStore?:
            return TerminalFailure(.notFound, "cannot read \(file)")
        default:
            return TerminalFailure(error, server: server, subject: "announcement \(id)")
        }
    }
}

/// `intranet attachments ID`: an announcement's attachments as a table.
struct AttachmentsCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments",
        abstract: "List an announcement's attachments: id, name, type, size, and an image's pixels.",
        discussion: """
            --output json prints the server's list. Save one with: intranet download ID NAME.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    func validate() throws {
        if id < 1 { throw ValidationError("the id must be 1 or more") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let attachments = try await session.perform("announcement \(id)") { try await session.client.attachments.list(of: id) }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
            return
        }
        guard !attachments.isEmpty else {
            await session.io.write("Announcement \(id) has no attachments.\n")
            return
        }
        var lines = AttachmentTable(width: context.width, isStyled: context.isStyled).lines(for: attachments)
        let count = attachments.count == 1 ? "1 attachment" : "\(attachments.count) attachments"
        lines.append(TextStyle.dim.apply(to: count, isStyled: context.isStyled))
        await session.writeLines(lines)
    }
}

/// `intranet download ID NAME [-o PATH] [--force]`: saves one attachment's file.
struct DownloadCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Save an announcement's attachment to a file.",
        discussion: """
            NAME is the attachment's name or its id (intranet attachments ID lists them). The \
            file is saved under its name in the current directory, or where -o says (into a \
            directory, under its name); an existing file is replaced only with --force, and \
            only once the whole file has arrived. --output json prints the attachment's \
            description as the server sent it.

            \(ExitStatus.helpText)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The announcement's id.")
    var id: Int

    @Argument(help: "The attachment's name, or its id.")
    var attachment: String

    @Option(name: [.customShort("o"), .customLong("output-file")], help: ArgumentHelp("Where to save it: a file, or a directory.", valueName: "path"))
    var outputFile: String?

    @Flag(help: "Replace a file that already exists.")
    var force = false

    func validate() throws {
        if id < 1 { throw ValidationError("the id must be 1 or more") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let subject = "announcement \(id)"
        let attachments = try await session.perform(subject) { try await session.client.attachments.list(of: id) }
        let listBody = await session.recorder.lastBody
        let index = try Self.match(attachment, in: attachments, subject: subject)
        let chosen = attachments[index]
        let (destination, shown) = Self.destination(for: chosen, outputFile: outputFile)
        if FileManager.default.fileExists(atPath: destination.path), !force {
            throw TerminalFailure.usage("not replacing \(shown), which exists; pass --force to replace it")
        }
        let outcome = try await session.perform("attachment \(chosen.name) of \(subject)") {
            do {
                return try await session.client.attachments.download(chosen, to: destination)
            } catch RepositoryError.localStore(let underlying) {
                throw TerminalFailure(.failure, "cannot write \(shown): \(underlying.localizedDescription)")
            }
        }
        if session.printsRaw {
            try await session.writeRaw(session.listElement(of: listBody, at: index))
        } else if case .downloaded(let file) = outcome {
            await session.io.write("Saved \(chosen.name) (\(ByteCount.format(file.size))) to \(shown)\n")
        }
    }

    /// The attachment `text` names: by name, else by id.
    ///
    /// - Throws: a ``TerminalFailure``: 66 when none matches, 64 when several share the name.
    static func match(_ text: String, in attachments: [AttachmentDescription], subject: String) throws -> Int {
        let named = attachments.indices.filter { attachments[$0].name == text }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            let ids = named.map { String(attachments[$0].id) }.joined(separator: ", ")
            throw TerminalFailure.usage("several attachments of \(subject) are named “\(text)”: give the id of the one to save (\(ids))")
        }
        if let id = Int(text), let index = attachments.firstIndex(where: { $0.id == id }) { return index }
        let names = attachments.map(\.name).joined(separator: ", ")
        throw TerminalFailure(.notFound, "\(subject) has no attachment named “\(text)”" + (names.isEmpty ? "" : " (it has: \(names))"))
    }

    /// Where to save `attachment`, and how to name that place to the user: `outputFile`, or
    /// the attachment's name inside it when it is a directory, or the name in the current
    /// directory.
    static func destination(for attachment: AttachmentDescription, outputFile: String?) -> (URL, String) {
        // The server keeps plain names; a name that is still a path is not used as one.
        let name = attachment.name.contains("/") || attachment.name == "." || attachment.name == ".." ? "attachment-\(attachment.id)" : attachment.name
        guard let outputFile else { return (URL(fileURLWithPath: name), name) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: outputFile, isDirectory: &isDirectory), isDirectory.boolValue {
            let url = URL(fileURLWithPath: outputFile, isDirectory: true).appendingPathComponent(name)
            return (url, (outputFile.hasSuffix("/") ? outputFile : outputFile + "/") + name)
        }
        return (URL(fileURLWithPath: outputFile), outputFile)
    }
}
