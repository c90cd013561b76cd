import IntranetClient

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
