/// A command that runs against a ``TerminalContext`` instead of the process itself, so the
/// same code serves the `intranet` binary and the tests.
public protocol TerminalCommand: Sendable {
    /// Runs the command.
    ///
    /// - Parameter context: the streams, terminal facts and transport to use.
    /// - Throws: a ``TerminalFailure`` (already worded for a person).
    func execute(in context: TerminalContext) async throws
}
