import Foundation
import IntranetTerminal
import RESTRepository
import RESTRepositoryTesting

/// A ``TerminalIO`` that keeps what a command writes and answers reads from a script.
actor CapturedTerminal: TerminalIO {
    private(set) var output = ""
    private(set) var errors = ""
    private var lines: [String]
    private let input: Data

    init(lines: [String] = [], input: Data = Data()) {
        self.lines = lines
        self.input = input
    }

    func write(_ text: String) { output += text }
    func writeError(_ text: String) { errors += text }
    func readToEnd() -> Data { input }

    func readLine() -> String? {
        lines.isEmpty ? nil : lines.removeFirst()
    }

    func readSecret() -> String? {
        readLine()
    }
}

/// The outcome of one `intranet` run in process.
struct RunResult: Sendable {
    var status: Int32
    var output: String
    var errors: String
}

/// Runs `intranet` in process with `arguments`, against `transport`, with a captured terminal.
func runIntranet(
    _ arguments: [String],
    transport: any Transport = MockTransport(script: []),
    terminal: CapturedTerminal = CapturedTerminal(),
    isOutputTerminal: Bool = false,
    isInputTerminal: Bool = false,
    isErrorTerminal: Bool = false,
    width: Int = 80,
    environment: [String: String] = [:]
) async -> RunResult {
    let context = TerminalContext(
        io: terminal, isOutputTerminal: isOutputTerminal, isInputTerminal: isInputTerminal, isErrorTerminal: isErrorTerminal,
        width: width, environment: ["XDG_CONFIG_HOME": "/nonexistent/intranet-tests"].merging(environment) { _, new in new },
        makeTransport: { _ in transport })
    let status = await TerminalApp.run(arguments, context: context)
    return RunResult(status: status, output: await terminal.output, errors: await terminal.errors)
}
