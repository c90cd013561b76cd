import IntranetAPI

/// Lays out search results as two tables, people then announcements, each row its id, name or
/// title, and the snippet that matched, the matched words in bold on a terminal; fitted to
/// the terminal's width.
public struct SearchTable: Sendable {
    /// The columns available.
    public var width: Int
    /// Whether the output shows ANSI styles.
    public var isStyled: Bool

    /// Creates a layout.
    public init(width: Int, isStyled: Bool) {
        self.width = width
        self.isStyled = isStyled
    }

    /// The lines for `results`: each group searched gets a heading with its total and a table,
    /// or a line saying nothing matched.
    public func lines(for results: SearchResults, query: String, page: Int) -> [String] {
        var lines: [String] = []
        if let people = results.people {
            lines += group("People", total: people.total, rows: people.items.map { ($0.id, $0.name, $0.snippet) }, page: page, nameHeader: "NAME")
        }
        if let announcements = results.announcements {
            if !lines.isEmpty { lines.append("") }
            lines += group(
                "Announcements", total: announcements.total, rows: announcements.items.map { ($0.id, $0.title, $0.snippet) }, page: page,
                nameHeader: "TITLE")
        }
        return lines
    }

    private func group(_ heading: String, total: Int, rows: [(Int, String, SearchSnippet)], page: Int, nameHeader: String) -> [String] {
        let title = "\(heading) · \(total) found" + (page > 1 ? " · page \(page)" : "")
        var lines = [TextStyle.bold.apply(to: title, isStyled: isStyled)]
        guard !rows.isEmpty else { return lines + [total == 0 ? "Nothing found." : "No more on this page."] }
        let ids = rows.map { String($0.0) }
        let idWidth = max(2, ids.map(\.count).max() ?? 2)
        let rest = max(20, width - idWidth - 4)
        let nameWidth = min(max(4, rows.map { DisplayWidth.of($0.1) }.max() ?? 4), max(10, rest * 2 / 5))
        let snippetWidth = max(8, rest - nameWidth)
        func cell(_ id: String, _ name: String) -> String {
            String(repeating: " ", count: idWidth - id.count) + id + "  "
                + DisplayWidth.padded(DisplayWidth.truncate(name, toWidth: nameWidth), toWidth: nameWidth) + "  "
        }
        lines.append(TextStyle.bold.apply(to: cell("ID", nameHeader) + "MATCH", isStyled: isStyled))
        for (id, row) in zip(ids, rows) {
            lines.append(cell(id, row.1) + marked(row.2, toWidth: snippetWidth))
        }
        return lines
    }

    /// A snippet cut to `width` columns, its marks in bold when styled.
    func marked(_ snippet: SearchSnippet, toWidth width: Int) -> String {
        let shown = DisplayWidth.truncate(snippet.text, toWidth: width)
        guard isStyled else { return shown }
        let scalars = Array(shown.unicodeScalars)
        var output = ""
        var position = 0
        for match in snippet.matches where match.count == 2 && match[0] >= position && match[1] > 0 {
            let start = min(match[0], scalars.count)
            let end = min(match[0] + match[1], scalars.count)
            guard start < end else { break }
            output += String(String.UnicodeScalarView(scalars[position..<start]))
            output += TextStyle.bold.apply(to: String(String.UnicodeScalarView(scalars[start..<end])), isStyled: true)
            position = end
        }
        return output + String(String.UnicodeScalarView(scalars[position...]))
    }
}
