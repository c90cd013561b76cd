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

    /// Reads a line with the terminal's echo turned off, then restores the terminal: after
    /// the line, at end of input, and when an interrupt, quit, hang-up or termination signal
    /// arrives meanwhile (the signal then does what it would have done).
    public func readSecret() async -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return Swift.readLine(strippingNewline: true) }
        EchoRestorer.saved = saved
        let signals = [SIGINT, SIGQUIT, SIGHUP, SIGTERM]
        let previous = signals.map { signal($0, EchoRestorer.restoreAndRaise) }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            for (number, handler) in zip(signals, previous) { signal(number, handler) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }

    /// Reads all of standard input.
    public func readToEnd() async -> Data {
        FileHandle.standardInput.readDataToEndOfFile()
    }
}

/// Puts the terminal back when a signal ends the process while a password is being read.
private enum EchoRestorer {
    /// The settings from before echo was turned off; written before the handlers are set.
    nonisolated(unsafe) static var saved = termios()

    /// The signal handler: restore the terminal, then let the signal act as it would have.
    static let restoreAndRaise: @convention(c) (Int32) -> Void = { number in
        tcsetattr(STDIN_FILENO, TCSANOW, &EchoRestorer.saved)
        signal(number, SIG_DFL)
        raise(number)
    }
}
