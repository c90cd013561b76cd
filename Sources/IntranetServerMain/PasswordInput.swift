import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a password from standard input: with a prompt and no echo on a terminal, as one line
/// from a pipe otherwise.
enum PasswordInput {
    static func read(prompt: String) throws -> String {
        let isTerminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if isTerminal {
            FileHandle.standardError.write(Data(prompt.utf8))
            tcgetattr(STDIN_FILENO, &saved)
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if isTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw ValidationError("no password on standard input")
        }
        return line
    }
}
