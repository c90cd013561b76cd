import IntranetAPI

/// Lays out people as an aligned table: right-aligned id, name, job title and department,
/// fitted to the terminal: the name and job title share what the id and department leave,
/// cut with `…` where they must be.
public struct PersonTable: Sendable {
    /// The columns available.
    public var width: Int
    /// Whether the header is bold.
    public var isStyled: Bool

    /// Creates a table layout.
    ///
    /// - Parameters:
    ///   - width: the terminal width in columns.
    ///   - isStyled: whether the output shows ANSI styles.
    public init(width: Int, isStyled: Bool) {
        self.width = width
        self.isStyled = isStyled
    }

    /// The table's lines: a header, one row per person, and `footer` when given.
    ///
    /// - Parameters:
    ///   - people: the people, in the order given.
    ///   - footer: a last line such as `Page 1 of 4 · 40 people`.
    public func lines(for people: [Person], footer: String? = nil) -> [String] {
        guard !people.isEmpty else { return ["No people."] + (footer.map { [$0] } ?? []) }
        let ids = people.map { String($0.id) }
        let idWidth = max(2, ids.map(\.count).max() ?? 2)
        let departmentWidth = min(20, max(10, people.map { DisplayWidth.of($0.department) }.max() ?? 10))
        let rest = max(16, width - idWidth - departmentWidth - 6)
        let nameWidth = min(max(4, people.map { DisplayWidth.of($0.name) }.max() ?? 4), max(8, rest / 2))
        let titleWidth = max(5, rest - nameWidth)
        func row(_ id: String, _ name: String, _ title: String, _ department: String) -> String {
            let line = String(repeating: " ", count: idWidth - id.count) + id + "  "
                + DisplayWidth.padded(DisplayWidth.truncate(name, toWidth: nameWidth), toWidth: nameWidth) + "  "
                + DisplayWidth.padded(DisplayWidth.truncate(title, toWidth: titleWidth), toWidth: titleWidth) + "  "
                + DisplayWidth.truncate(department, toWidth: departmentWidth)
            return String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
        var lines = [TextStyle.bold.apply(to: row("ID", "NAME", "JOB TITLE", "DEPARTMENT"), isStyled: isStyled)]
        for (id, person) in zip(ids, people) {
            lines.append(row(id, person.name, person.jobTitle, person.department))
        }
        if let footer { lines.append(footer) }
        return lines
    }
}
