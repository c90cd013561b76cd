import Foundation

/// Where a command writes its output and reads its input: the process's standard streams in
/// the `intranet` binary, a captured buffer in tests.
public protocol TerminalIO: Sendable {
    /// Writes text to standard output.
    func write(_ text: String) async
    /// Writes text to standard error.
    func writeError(_ text: String) async
    /// Reads one line from standard input, without its newline; `nil` at end of input.
    func readLine() async -> String?
    /// Reads one line from standard input without showing it (a password), without its
    /// newline; `nil` at end of input.
    func readSecret() async -> String?
    /// Reads standard input to its end.
    func readToEnd() async -> Data
}
