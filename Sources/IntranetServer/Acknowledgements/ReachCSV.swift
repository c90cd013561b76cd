import Foundation
import Hummingbird
import IntranetAPI
import NIOCore

/// The named list of an announcement's audience as CSV (RFC 4180): a header line, then one line
/// per person — name, email, department, acknowledged at (RFC 3339, empty while pending) —
/// streamed page by page, so the answer takes constant memory whatever the audience.
enum ReachCSV {
    /// The header line.
    static let header = "name,email,department,acknowledged_at\r\n"

    /// One line for `entry`.
    static func line(_ entry: ReachReporter.Entry) -> String {
        let department = entry.department.isEmpty ? DepartmentReach.noDepartment : entry.department
        let acknowledged = entry.acknowledgedAt.map(IntranetJSON.format) ?? ""
        return [entry.name, entry.email, department, acknowledged].map(field).joined(separator: ",") + "\r\n"
    }

    /// A field as CSV writes it: quoted when it holds a comma, a quote or a line break (quotes
    /// doubled); a text a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab or a
    /// carriage return first) is prefixed with `'`, so opening the file runs nothing.
    static func field(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The streamed answer: `text/csv`, a download named after the announcement, never kept.
    static func response(of announcement: StoredAnnouncement, reporter: ReachReporter) -> Response {
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: header))
            var last: ReachReporter.Entry?
            while true {
                let page = try await reporter.entries(of: announcement, after: last)
                guard !page.isEmpty else { break }
                try await writer.write(ByteBuffer(string: page.map(line).joined()))
                last = page.last
                if page.count < ReachReporter.pageSize { break }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8; header=present",
                .contentDisposition: "attachment; filename=\"reach-\(announcement.id)-round-\(announcement.acknowledgement.round).csv\"",
                .cacheControl: "private, no-store",
                .xContentTypeOptions: "nosniff",
            ],
            body: body)
    }
}
