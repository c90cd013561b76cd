import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Spearal

/// What one command run talks through: the SDK client for the chosen server and version, the
/// recorder of raw responses, and the terminal.
struct CommandSession: Sendable {
    let context: TerminalContext
    let options: GlobalOptions
    let serverURL: URL
    let recorder = ExchangeRecorder()
    let client: IntranetClient
    /// Where `intranet login` keeps the session for this server (one 0600 file per server).
    let sessionStore: FileSessionStore
    /// The answers kept on this machine, unless `--cache off` or no cache directory.
    let responseStore: ResponseStore?
    /// Notices about kept answers, written to standard error after each step.
    let notices = StoreNotices()

    init(options: GlobalOptions, context: TerminalContext) throws {
        self.context = context
        self.options = options
        serverURL = try options.serverURL(environment: context.environment)
        let io = context.io
        var log: (@Sendable (String) async -> Void)?
        if options.verbose {
            log = { line in await io.writeError(line + "\n") }
        }
        let transport = RecordingTransport(
            context.makeTransport(serverURL), recorder: recorder, baseURL: serverURL, log: log)
        // One request per step, no retries: what --verbose shows is what happened, and an
        // unreachable server is reported at once.
        sessionStore = FileSessionStore(
            serverURL: serverURL, directory: FileSessionStore.defaultDirectory(environment: context.environment))
        let policy = try options.storePolicy()
        responseStore = policy == nil ? nil : Self.openStore(context: context, notices: notices)
        if policy == .storeOnly, responseStore == nil {
            throw TerminalFailure.usage("--offline reads the answers kept in $XDG_CACHE_HOME/intranet or ~/.cache/intranet, but neither XDG_CACHE_HOME nor HOME is set")
        }
        if policy == .storeFirst, let responseStore {
            PendingRevalidations.register(responseStore)
        }
        let (recorder, notices, server) = (recorder, notices, serverURL)
        var configuration = IntranetClientConfiguration(
            retryPolicy: nil, sessionStore: sessionStore,
            signingKey: try options.signingKey(environment: context.environment),
            responseStore: responseStore, storePolicy: policy ?? .networkFirst,
            // Answers are kept per server: one server's answers are never shown for another.
            storeScope: serverURL.absoluteString,
            responseObserver: { request, response in
                // The raw body of an answer from the store, for --output json and spearal.
                if response.origin.source != .network {
                    await recorder.record(.init(
                        method: request.method.rawValue, path: request.pathWithQuery,
                        status: response.head.status.code, body: response.body))
                }
                if response.origin.source == .storeWhileUnreachable {
                    notices.add(StoreNotices.staleAnswer(response.origin, server: server))
                }
                for line in notices.take() {
                    await io.writeError(line + "\n")
                }
            })
        configuration.liveStreamBaseURL = serverURL
        client = IntranetClient(
            transport: transport, apiVersion: options.apiVersion.apiVersion,
            format: try options.wireFormat(environment: context.environment), configuration: configuration)
    }

    var announcements: AnnouncementsRepository { client.announcements }
    /// Whether the output is the server's answer itself (JSON or Spearal), not a table.
    var printsRaw: Bool { options.output != .table }
    var io: any TerminalIO { context.io }

    /// Runs one step against the server, turning any failure into a ``TerminalFailure``.
    ///
    /// - Parameters:
    ///   - subject: what the step is about, e.g. `announcement 7`.
    ///   - step: the SDK calls.
    func perform<Result: Sendable>(
        _ subject: String, _ step: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await step()
        } catch {
            await writeNotices()
            throw TerminalFailure(error, server: serverURL, subject: subject)
        }
    }

    /// Writes the queued notices about kept answers to standard error.
    func writeNotices() async {
        for line in notices.take() {
            await io.writeError(line + "\n")
        }
    }

    /// Opens the store of kept answers in the cache directory (made 0700); `nil` when there is
    /// no cache directory.
    static func openStore(context: TerminalContext, notices: StoreNotices) -> ResponseStore? {
        guard let directory = GlobalOptions.cacheDirectory(environment: context.environment) else {
            return nil
        }
        let manager = FileManager.default
        try? manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try? manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        return ResponseStore(fileURL: directory.appendingPathComponent(Self.storeFileName), logger: notices.logger())
    }

    /// The store's file name in the cache directory.
    static let storeFileName = "responses.sqlite"

    /// Writes a note to standard error when `--verbose` is on.
    func note(_ text: String) async {
        if options.verbose { await io.writeError(text + "\n") }
    }

    /// Ends a command that answers in one line: the last answer's body as it came when
    /// `--output` asks for it, otherwise `line`.
    func finish(saying line: @autoclosure () -> String) async throws {
        if printsRaw {
            try await writeRaw(await recorder.lastBody)
        } else {
            await io.write(line() + "\n")
        }
    }

    /// Writes a response body to standard output: JSON unchanged, Spearal through the
    /// Spearal printer; ending with a newline.
    ///
    /// - Throws: a ``TerminalFailure`` when a Spearal answer cannot be read.
    func writeRaw(_ data: Data) async throws {
        var text: String
        if options.output == .spearal {
            do {
                text = try SpearalPrinter().print(data)
            } catch {
                throw TerminalFailure(.failure, "the server's answer is not valid Spearal (\(error.explanation))")
            }
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        if !text.hasSuffix("\n") { text += "\n" }
        await io.write(text)
    }

    /// The bodies of several list pages as one list, in the output's format.
    func joinedList(_ pages: [Data]) -> Data {
        if options.output == .spearal {
            let elements = pages.flatMap { page -> [SpearalValue] in
                guard case .collection(let list)? = try? SpearalDecoder().decodeValue(from: page) else { return [] }
                return list.elements
            }
            return (try? SpearalEncoder().encodeValue(.collection(SpearalList(elements)))) ?? Data()
        }
        return JSONArrayElements.join(pages.flatMap { JSONArrayElements.split($0) ?? [] })
    }

    /// One element of a list page's body, in the output's format (empty when out of range).
    func listElement(of page: Data, at index: Int) -> Data {
        if options.output == .spearal {
            guard case .collection(let list)? = try? SpearalDecoder().decodeValue(from: page), index < list.elements.count else {
                return Data()
            }
            return (try? SpearalEncoder().encodeValue(list.elements[index])) ?? Data()
        }
        let elements = JSONArrayElements.split(page) ?? []
        return index < elements.count ? elements[index] : Data()
    }

    /// Runs one admin step: like ``perform(_:_:)``, but a 403 says that an admin is needed.
    ///
    /// - Parameters:
    ///   - subject: what the step is about, e.g. `user alice`.
    ///   - step: the SDK calls.
    ///   - task: what needs the admin, for the message of a 403.
    func performAsAdmin<Result: Sendable>(
        _ subject: String, task: String = "managing users", _ step: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await step()
        } catch RepositoryError.forbidden(let details) {
            let detail = details.problem?.detail.map { ": \($0)" } ?? ""
            throw TerminalFailure(.unauthorized, "\(task) needs an admin's session (403\(detail))")
        } catch {
            await writeNotices()
            throw TerminalFailure(error, server: serverURL, subject: subject)
        }
    }

    /// Writes lines to standard output.
    func writeLines(_ lines: [String]) async {
        await io.write(lines.map { $0 + "\n" }.joined())
    }
}
