/// A failure as `intranet` reports it: one line for a person and an ``ExitStatus``.
///
/// Every error a command meets is turned into one of these at a single place
/// (``init(_:server:subject:)``), so no Swift error dump or stack trace reaches the user.
public struct TerminalFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exit status.
    public var status: ExitStatus
    /// The message, one line, without the `intranet:` prefix.
    public var message: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - status: the exit status.
    ///   - message: one line for a person.
    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A usage failure (exit status 64).
    public static func usage(_ message: String) -> TerminalFailure {
        TerminalFailure(.usage, message)
    }

    /// The line written to standard error.
    public var description: String {
        "intranet: \(message)"
    }
}
