import IntranetAPI

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
