import Foundation

/// Where a new body comes from: `--body TEXT`, `--body -` (standard input) or
/// `--body-file PATH` (`-` for standard input too) for HTML; `--markdown PATH` (or a body file
/// ending in `.md`) for Markdown, which the server makes HTML and keeps for later edits.
struct BodySource: Sendable {
    /// `--body`: the HTML itself, or `-`.
    var text: String?
    /// `--body-file`: a path, or `-`.
    var file: String?
    /// `--markdown`: a path of a Markdown file, or `-`.
    var markdownFile: String? = nil

    /// Whether a body was given at all.
    var isGiven: Bool { text != nil || file != nil || markdownFile != nil }

    /// Whether the body is Markdown: `--markdown`, or a body file named `*.md`.
    var isMarkdown: Bool {
        markdownFile != nil || (file.map { $0.lowercased().hasSuffix(".md") || $0.lowercased().hasSuffix(".markdown") } ?? false)
    }

    /// The usage problem with the combination, if any.
    var conflict: String? {
        [text, file, markdownFile].compactMap { $0 }.count > 1 ? "give one of --body, --body-file and --markdown, not more" : nil
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
        if text == "-" || file == "-" || markdownFile == "-" {
            data = await io.readToEnd()
        } else if let file = file ?? markdownFile {
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
