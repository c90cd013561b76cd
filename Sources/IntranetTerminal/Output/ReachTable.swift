import Foundation
import IntranetAPI

/// Lays out a reach report: the totals in one line each, then a table per department with a
/// bar of the share confirmed, fitted to the terminal's width.
public struct ReachTable: Sendable {
    /// The columns available.
    public var width: Int
    /// Whether the output shows ANSI styles.
    public var isStyled: Bool

    /// Creates a layout.
    public init(width: Int, isStyled: Bool) {
        self.width = width
        self.isStyled = isStyled
    }

    /// The lines for `report` of announcement `id`.
    public func lines(for report: ReachReport, id: Int) -> [String] {
        var heading = "Reach of announcement \(id)"
        if report.round > 0 { heading += " · round \(report.round)" }
        if let dueAt = report.dueAt { heading += " · due \(LocalTime.format(dueAt))" }
        if !report.required { heading += report.round > 0 ? " · no longer asked" : " · acknowledgement not asked" }
        var lines = [TextStyle.bold.apply(to: heading, isStyled: isStyled)]
        lines.append("Audience \(report.audience) · confirmed \(report.acknowledged) · pending \(report.pending) · overdue \(report.overdue)")
        var opened = "Opened by \(report.opened) (distinct readers, counted without names)"
        if report.formerEmployees > 0 { opened += " · \(report.formerEmployees) confirmed and since left" }
        lines.append(opened)
        guard !report.departments.isEmpty else { return lines + ["", "No one is in its audience."] }
        lines.append("")
        let numbers = ["AUDIENCE", "CONFIRMED", "PENDING"]
        let numberWidth = numbers.map(\.count).max() ?? 9
        let percentWidth = 5
        let fixed = 3 * (numberWidth + 2) + percentWidth + 2
        let nameWidth = min(max(10, report.departments.map { DisplayWidth.of($0.name) }.max() ?? 10), max(10, (width - fixed) / 2))
        let barWidth = max(0, min(30, width - fixed - nameWidth - 2))
        func row(_ name: String, _ cells: [String], bar: String) -> String {
            DisplayWidth.padded(DisplayWidth.truncate(name, toWidth: nameWidth), toWidth: nameWidth) + "  "
                + cells.map { String(repeating: " ", count: max(0, numberWidth - $0.count)) + $0 + "  " }.joined() + bar
        }
        lines.append(TextStyle.bold.apply(to: row("DEPARTMENT", numbers, bar: "CONFIRMED SHARE"), isStyled: isStyled))
        for department in report.departments {
            let share = department.audience == 0 ? 0 : department.acknowledged * 100 / department.audience
            let filled = department.audience == 0 ? 0 : department.acknowledged * barWidth / department.audience
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
            let percent = String(share) + " %"
            lines.append(row(
                department.name, [String(department.audience), String(department.acknowledged), String(department.pending)],
                bar: (barWidth > 0 ? bar + " " : "") + String(repeating: " ", count: max(0, percentWidth - percent.count)) + percent))
        }
        return lines
    }
}
