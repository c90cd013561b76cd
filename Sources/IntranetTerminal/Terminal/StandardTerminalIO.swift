import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's own standard output, standard error and standard input.
///
/// Writes go straight to the file descriptors (no buffering), so output is complete when the
/// process exits and stderr lines interleave with stdout as they happen.
public struct StandardTerminalIO: TerminalIO {
    /// Creates the standard streams.
    public init() {}

    /// Writes to standard output.
    public func write(_ text: String) async {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes to standard error.
    public func writeError(_ text: String) async {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Reads a line from standard input.
    public func readLine() async -> String? {
        Swift.readLine(strippingNewline: true)
    }

    /// Reads a line with the terminal's echo turned off, then restores the terminal.
    public func readSecret() async -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return Swift.readLine(strippingNewline: true) }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }

    /// Reads all of standard input.
    public func readToEnd() async -> Data {
        FileHandle.standardInput.readDataToEndOfFile()
    }
}
