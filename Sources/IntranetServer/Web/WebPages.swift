import Foundation
import IntranetAPI
import IntranetHTML

/// The values pages show, built from stored data: dates for people, excerpts, the layout's
/// signed-in user.
enum WebPages {
    /// Items per list page.
    static let pageSize = 10
    /// The longest search text accepted (longer is cut).
    static let maxSearchLength = 200

    /// The layout's values for `identity`, with the page title.
    static func layout(_ title: String, _ identity: WebIdentity) -> [String: Any] {
        var context: [String: Any] = ["pageTitle": title, "csrf": identity.csrf]
        if let user = identity.user {
            context["user"] = [
                "displayName": user.displayName, "role": user.role.rawValue, "isAdmin": user.role >= .admin,
            ] as [String: Any]
        }
        return context
    }

    /// An announcement as list and detail pages show it at `now`, times in `zone`.
    static func announcement(
        _ item: StoredAnnouncement, sanitizer: HTMLSanitizer, at now: Date = Date(), zone: TimeZone = TimeZone(identifier: "UTC")!
    ) -> [String: Any] {
        var context: [String: Any] = [
            "id": item.id, "title": item.title, "revision": item.revision,
            "createdISO": iso(item.createdAt), "createdText": text(item.createdAt, zone: zone),
            "restricted": item.isRestricted,
            // Stored bodies were sanitised on the way in; again here, so what a page shows
            // never depends on how old a body is.
            "bodyHTML": WebAttachments.responsiveBody(sanitizer.sanitize(item.body ?? "").html, attachments: item.attachments),
        ]
        if item.updatedAt.timeIntervalSince(item.createdAt) >= 60 {
            context["updated"] = true
            context["updatedISO"] = iso(item.updatedAt)
            context["updatedText"] = text(item.updatedAt, zone: zone)
        }
        context.merge(WebPublishingForm.display(item, at: now, zone: zone)) { _, new in new }
        context.merge(WebAttachments.context(item.attachments)) { _, new in new }
        if let excerpt = excerpt(of: item.body) {
            context["excerpt"] = excerpt
        }
        return context
    }

    /// The first words of a body as plain text (about 200 characters), or `nil` for none.
    static func excerpt(of html: String?, limit: Int = 200) -> String? {
        guard let html, !html.isEmpty else { return nil }
        var excerpt = HTMLText.plain(html, limit: limit * 2)
        guard !excerpt.isEmpty else { return nil }
        if excerpt.count > limit {
            excerpt = String(excerpt.prefix(limit)).trimmingCharacters(in: .whitespaces) + "…"
        }
        return excerpt
    }

    /// `2026-11-24T09:30:00Z`, for `<time datetime>`.
    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// `24 November 2026, 09:30 UTC`, for people, in the site's zone (its abbreviation, as
    /// `WET`, or its offset).
    static func text(_ date: Date, zone: TimeZone = TimeZone(identifier: "UTC")!) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "d MMMM yyyy, HH:mm"
        let name = zone.secondsFromGMT(for: date) == 0 && ["UTC", "GMT", "Etc/UTC"].contains(zone.identifier)
            ? "UTC" : (zone.abbreviation(for: date) ?? zone.identifier)
        return formatter.string(from: date) + " " + name
    }

    /// The link to list page `page` of search `query` (and an editor's `status` list), on the
    /// list at `path`.
    static func listLink(page: Int, query: String?, status: String? = nil, path: String = "/") -> String {
        var items: [String] = []
        if let status { items.append("status=" + status) }
        if let query, !query.isEmpty {
            items.append("q=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        }
        if page > 1 {
            items.append("page=\(page)")
        }
        return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
    }

    /// A person as the directory's pages show them: one line, with a link.
    static func personLine(_ person: StoredPerson) -> [String: Any] {
        ["id": person.id, "name": person.name, "jobTitle": person.jobTitle, "department": person.department]
    }

    /// A person's card: contact, manager and reports.
    static func personCard(_ person: StoredPerson, manager: StoredPerson?, reports: [StoredPerson]) -> [String: Any] {
        var card = personLine(person)
        card["email"] = person.email
        if let phone = person.phone {
            card["phone"] = phone
            card["phoneLink"] = "tel:" + phone.filter { $0.isNumber || $0 == "+" }
        }
        if let location = person.location { card["location"] = location }
        if let manager { card["manager"] = personLine(manager) }
        card["reports"] = reports.map(personLine)
        card["hasReports"] = !reports.isEmpty
        return card
    }

    /// The org chart's nodes, nested: every node says whether it has reports and lists them
    /// (empty when none), so the recursive partial never reads its parent's.
    static func orgNodes(_ members: [PersonGraphNode]) -> [[String: Any]] {
        members.map { node in
            var line = personLine(node.person)
            line["reports"] = orgNodes(node.reports)
            line["hasReports"] = !node.reports.isEmpty
            return line
        }
    }
}
