import Foundation

/// Where a new body comes from: `--body TEXT`, `--body -` (standard input) or
/// `--body-file PATH` (`-` for standard input too).
struct BodySource: Sendable {
    /// `--body`: the HTML itself, or `-`.
    var text: String?
    /// `--body-file`: a path, or `-`.
    var file: String?

    /// Whether a body was given at all.
    var isGiven: Bool { text != nil || file != nil }

    /// The usage problem with the combination, if any.
    var conflict: String? {
        text != nil && file != nil ? "give either --body or --body-file, not both" : nil
    }

    /// Reads the body.
    ///
    /// - Parameter io: standard input for `-`.
    /// - Returns: the HTML, or `nil` when no body was given.
    /// - Throws: a usage ``TerminalFailure`` when the file cannot be read or is not UTF-8.
    func read(from io: any TerminalIO) async throws -> String? {
        if let text, text != "-" {
            return text
        }
        let data: Data
        if text == "-" || file == "-" {
            data = await io.readToEnd()
        } else if let file {
            guard FileManager.default.fileExists(atPath: file) else {
                throw TerminalFailure.usage("cannot read the body file “\(file)”: no such file")
            }
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw TerminalFailure.usage("cannot read the body file “\(file)”")
            }
            data = contents
        } else {
            return nil
        }
        guard let body = String(data: data, encoding: .utf8) else {
            throw TerminalFailure.usage("the body is not UTF-8 text")
        }
        return body
    }
}
