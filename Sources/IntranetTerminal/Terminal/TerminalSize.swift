import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the process's terminal looks like: its width and which streams are terminals.
public enum TerminalSize {
    /// The width used when neither the terminal nor `COLUMNS` says.
    public static let defaultWidth = 80

    /// The output width in columns: the terminal's (`TIOCGWINSZ`) when standard output is
    /// one, else `COLUMNS`, else 80.
    ///
    /// - Parameter environment: the process environment (for `COLUMNS`).
    public static func columns(environment: [String: String]) -> Int {
        if let columns = terminalColumns(), columns > 0 {
            return columns
        }
        return width(fromColumns: environment["COLUMNS"])
    }

    /// The width `COLUMNS` asks for, or 80 when it is unset or not a positive number.
    ///
    /// - Parameter value: the value of `COLUMNS`.
    public static func width(fromColumns value: String?) -> Int {
        guard let value, let columns = Int(value.trimmingCharacters(in: .whitespaces)), columns > 0 else {
            return defaultWidth
        }
        return columns
    }

    private static func terminalColumns() -> Int? {
        guard isTerminal(STDOUT_FILENO) else { return nil }
        var size = winsize()
        #if canImport(Glibc)
        let result = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size)
        #else
        let result = ioctl(STDOUT_FILENO, TIOCGWINSZ, &size)
        #endif
        return result == 0 ? Int(size.ws_col) : nil
    }

    /// Whether a file descriptor is a terminal.
    ///
    /// - Parameter descriptor: e.g. `STDOUT_FILENO`.
    public static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) != 0
    }
}
