import ArgumentParser

/// Runs `intranet` with arguments against a context and returns the exit status: the whole
/// program, minus the process (the `intranet` binary is one call to ``run(_:context:)``).
///
/// Help goes to standard output with status 0; usage errors to standard error with
/// ArgumentParser's message and status 64; every other failure to standard error as one
/// `intranet: …` line with its ``ExitStatus``.
public enum TerminalApp {
    /// Parses and runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - context: the streams, terminal facts and transport to use.
    /// - Returns: the exit status.
    public static func run(_ arguments: [String], context: TerminalContext) async -> Int32 {
        let command: any ParsableCommand
        do {
            command = try IntranetCommand.parseAsRoot(arguments)
        } catch {
            return await report(error, context: context)
        }
        guard let runnable = command as? any TerminalCommand else {
            // A group, or ArgumentParser's own `help`: their run() asks for help by throwing.
            do {
                var command = command
                try command.run()
                return ExitStatus.success.rawValue
            } catch {
                return await report(error, context: context)
            }
        }
        do {
            try await runnable.execute(in: context)
            await PendingRevalidations.drain()
            return ExitStatus.success.rawValue
        } catch let failure as TerminalFailure {
            await context.io.writeError(failure.description + "\n")
            return failure.status.rawValue
        } catch {
            return await report(error, context: context)
        }
    }

    /// Reports an ArgumentParser error (help request, usage error) as `intranet` would.
    private static func report(_ error: any Error, context: TerminalContext) async -> Int32 {
        let message = IntranetCommand.fullMessage(for: error, columns: context.width)
        let status = IntranetCommand.exitCode(for: error).rawValue
        if status == ExitStatus.success.rawValue {
            await context.io.write(message + "\n")
        } else {
            await context.io.writeError(message + "\n")
        }
        return status
    }
}
