import Foundation

extension TerminalContext {
    /// Refuses a deletion up front when nobody can confirm it: no `--yes` and standard input is
    /// not a terminal.
    ///
    /// - Throws: ``TerminalFailure`` (usage) naming `subject`.
    func requireConfirmable(deleting subject: String, yes: Bool) throws {
        guard yes || isInputTerminal else {
            throw TerminalFailure.usage(
                "not deleting \(subject): standard input is not a terminal, so nobody can confirm; pass --yes to delete without asking")
        }
    }

    /// Asks `question` on standard error and goes on only for "y" or "yes".
    ///
    /// - Throws: ``TerminalFailure`` saying `subject` was not deleted, for any other answer.
    func confirmDeletion(of subject: String, asking question: String) async throws {
        await io.writeError("\(question) [y/N] ")
        let answer = (await io.readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            throw TerminalFailure(.failure, "\(subject) was not deleted")
        }
    }
}
