/// How a command gets a password: asked for without echo when standard input is a terminal,
/// or read from standard input with `--password-stdin` (for scripts). Never printed.
enum PasswordInput {
    /// Reads a password.
    ///
    /// - Parameters:
    ///   - prompt: what to ask, e.g. `Password: `.
    ///   - fromStandardInput: `--password-stdin`: read all of standard input, less the final
    ///     line break.
    ///   - confirm: on a terminal, ask a second time and insist that both match.
    ///   - context: the terminal.
    /// - Throws: a usage ``TerminalFailure`` when there is no terminal to ask on, the
    ///   password is empty or the two entries differ.
    static func read(
        prompt: String, fromStandardInput: Bool, confirm: Bool = false, context: TerminalContext
    ) async throws -> String {
        let io = context.io
        let password: String
        if fromStandardInput {
            let data = await io.readToEnd()
            password = String(decoding: data, as: UTF8.self).trimmingSuffix { $0 == "\n" || $0 == "\r" }
        } else {
            guard context.isInputTerminal else {
                throw TerminalFailure.usage("no terminal to ask for the password on; pipe it in with --password-stdin")
            }
            await io.writeError(prompt)
            password = await io.readSecret() ?? ""
            if confirm, !password.isEmpty {
                await io.writeError("Again: ")
                guard await io.readSecret() == password else {
                    throw TerminalFailure.usage("the two passwords differ; nothing was changed")
                }
            }
        }
        guard !password.isEmpty else {
            throw TerminalFailure.usage("the password is empty")
        }
        return password
    }
}

private extension String {
    /// The string without the trailing characters matching `predicate`.
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) {
            end = index(before: end)
        }
        return String(self[..<end])
    }
}
