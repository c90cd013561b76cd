import IntranetAPI
import IntranetClient

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

/// One person as a card: name, job title and department, contact, manager and reports.
public struct PersonCard: Sendable {
    /// The columns available.
    public var width: Int
    /// Whether the name is bold.
    public var isStyled: Bool

    /// Creates a card layout.
    ///
    /// - Parameters:
    ///   - width: the terminal width in columns.
    ///   - isStyled: whether the output shows ANSI styles.
    public init(width: Int, isStyled: Bool) {
        self.width = width
        self.isStyled = isStyled
    }

    /// The card's lines for `person`, whose `manager` and `reports` summaries are shown when
    /// present (as read with `expand` or in Spearal); ids otherwise.
    public func lines(for person: Person) -> [String] {
        var lines = [TextStyle.bold.apply(to: DisplayWidth.truncate(person.name, toWidth: width), isStyled: isStyled)]
        lines.append(DisplayWidth.truncate("\(person.jobTitle) · \(person.department)", toWidth: width))
        lines.append("")
        var fields: [(label: String, values: [String])] = [("E-mail", [person.email])]
        if let phone = person.phone { fields.append(("Phone", [phone])) }
        if let location = person.location { fields.append(("Location", [location])) }
        if let manager = person.manager {
            fields.append(("Manager", ["\(manager.name), \(manager.jobTitle) (\(manager.id))"]))
        } else if let managerID = person.managerId {
            fields.append(("Manager", ["person \(managerID)"]))
        } else {
            fields.append(("Manager", ["none (top of the organisation)"]))
        }
        let reports = person.reports.map { $0.map { "\($0.name), \($0.jobTitle) (\($0.id))" } } ?? person.reportIds.map { "person \($0)" }
        fields.append(("Reports", reports.isEmpty ? ["none"] : reports))
        fields.append(("ID", [String(person.id)]))
        let labelWidth = fields.map(\.label.count).max() ?? 0
        for (label, values) in fields {
            for (index, value) in values.enumerated() {
                let lead = index == 0 ? DisplayWidth.padded(label, toWidth: labelWidth) : String(repeating: " ", count: labelWidth)
                lines.append(DisplayWidth.truncate(lead + "  " + value, toWidth: width))
            }
        }
        return lines
    }
}

/// The org chart under one person (or everyone) as a tree drawn with box-drawing characters,
/// each line fitted to the terminal width (names and titles cut with `…`):
///
/// ```
/// Margit Olsen · Chief Executive Officer (1)
/// ├── Amélie Durand · Chief Financial Officer (2)
/// │   └── Tomasz Kowalski · Finance Manager (7)
/// └── Zoë Lefèvre · Head of IT (3)
/// ```
public struct OrgTree: Sendable {
    /// The columns available.
    public var width: Int

    /// Creates a tree layout.
    ///
    /// - Parameter width: the terminal width in columns.
    public init(width: Int) {
        self.width = width
    }

    /// The tree's lines, each top person followed by everyone under them, depth first.
    ///
    /// - Parameter tops: the people to start from (`OrgChart.roots`, or one member).
    public func lines(for tops: [OrgChartMember]) -> [String] {
        var lines: [String] = []
        // By person id: members are made on demand, so an object's address may be reused.
        var seen: Set<Int> = []
        // (member, prefix for its own line, prefix for its reports' lines)
        var stack: [(OrgChartMember, String, String)] = tops.reversed().map { ($0, "", "") }
        while let (member, linePrefix, childPrefix) = stack.popLast() {
            guard seen.insert(member.id).inserted else { continue }
            let label = "\(member.name) · \(member.person.jobTitle) (\(member.id))"
            lines.append(Self.fitted(linePrefix, label, width: width))
            let reports = member.reports
            for (index, report) in reports.enumerated().reversed() {
                let isLast = index == reports.count - 1
                stack.append((report, childPrefix + (isLast ? "└── " : "├── "), childPrefix + (isLast ? "    " : "│   ")))
            }
        }
        return lines
    }

    /// `prefix` then `label`, cut to `width`; when the prefix alone is too deep for the width,
    /// its upper levels are folded into `…`.
    private static func fitted(_ prefix: String, _ label: String, width: Int) -> String {
        var prefix = prefix
        let minimumLabel = 12
        if DisplayWidth.of(prefix) + minimumLabel > width, prefix.count > 8 {
            let keep = max(8, width - minimumLabel - 2)
            prefix = "…" + String(prefix.suffix(keep - 1))
        }
        return DisplayWidth.truncate(prefix + label, toWidth: max(width, DisplayWidth.of(prefix) + 1))
    }
}
