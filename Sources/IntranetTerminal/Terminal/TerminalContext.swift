import Foundation
import RESTRepository
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything a command needs from the world outside it: the streams, whether they are
/// terminals, the width, the environment and how to reach a server.
///
/// The `intranet` binary uses ``standard()``; tests build one with a captured
/// ``TerminalIO`` and a `MockTransport`.
public struct TerminalContext: Sendable {
    /// Standard output, standard error and standard input.
    public var io: any TerminalIO
    /// Whether standard output is a terminal (styles on, unless `NO_COLOR` is set).
    public var isOutputTerminal: Bool
    /// Whether standard input is a terminal (so a person can confirm a deletion).
    public var isInputTerminal: Bool
    /// Whether standard error is a terminal (so progress is drawn as a bar, not written as lines).
    public var isErrorTerminal: Bool
    /// The output width in columns.
    public var width: Int
    /// The process environment (`INTRANET_SERVER`, `NO_COLOR`).
    public var environment: [String: String]
    /// Makes the transport that carries requests to a server's base URL.
    public var makeTransport: @Sendable (URL) -> any Transport

    /// Creates a context.
    public init(
        io: any TerminalIO,
        isOutputTerminal: Bool = false,
        isInputTerminal: Bool = false,
        isErrorTerminal: Bool = false,
        width: Int = TerminalSize.defaultWidth,
        environment: [String: String] = [:],
        makeTransport: @escaping @Sendable (URL) -> any Transport
    ) {
        self.io = io
        self.isOutputTerminal = isOutputTerminal
        self.isInputTerminal = isInputTerminal
        self.isErrorTerminal = isErrorTerminal
        self.width = width
        self.environment = environment
        self.makeTransport = makeTransport
    }

    /// The real process: its standard streams, its terminal, its environment, and
    /// `URLSession` for the network.
    public static func standard() -> TerminalContext {
        let environment = ProcessInfo.processInfo.environment
        return TerminalContext(
            io: StandardTerminalIO(),
            isOutputTerminal: TerminalSize.isTerminal(STDOUT_FILENO),
            isInputTerminal: TerminalSize.isTerminal(STDIN_FILENO),
            isErrorTerminal: TerminalSize.isTerminal(STDERR_FILENO),
            width: TerminalSize.columns(environment: environment),
            environment: environment,
            makeTransport: { URLSessionTransport(configuration: .init(baseURL: $0, timeout: 30, cachePolicy: .reloadIgnoringLocalCacheData)) })
    }

    /// Whether output gets ANSI styles: standard output is a terminal, `NO_COLOR` is unset
    /// and `TERM` is not `dumb`.
    public var isStyled: Bool {
        isOutputTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
