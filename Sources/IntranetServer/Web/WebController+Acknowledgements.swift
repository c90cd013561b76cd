import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// Acknowledgements in the browser, with no script: the *I have read and understood* form on
/// an announcement that asks for it, the reader's list of what waits for them, and the editors'
/// reach page (a bar per department) with its CSV.
extension WebController {
    /// Marks the place of the acknowledgement section in an announcement's shared main part;
    /// each reader's page puts their own section there.
    static let acknowledgementMarker = "<!--acknowledgement-->"

    /// An announcement's page with the reader's own acknowledgement section: never kept, since
    /// it says what this reader did.
    func acknowledgementPage(_ fragment: PageFragment, id: Int, identity: WebIdentity, rule: AcknowledgementRule) async throws -> Response {
        let now = now()
        var section: [String: Any] = ["id": id, "csrf": identity.csrf, "round": rule.round]
        var acknowledgedAt: Date?
        if let user = identity.user, let acknowledging {
            acknowledgedAt = try await acknowledging.store.acknowledgedAt(id, round: rule.round, by: user.id)
            section["mayAcknowledge"] = acknowledgedAt == nil
        } else {
            section["signedOut"] = identity.user == nil
        }
        if let acknowledgedAt {
            section["acknowledgedISO"] = WebPages.iso(acknowledgedAt)
            section["acknowledgedText"] = WebPages.text(acknowledgedAt, zone: timeZone)
        }
        if let dueAt = rule.dueAt {
            section["dueISO"] = WebPages.iso(dueAt)
            section["dueText"] = WebPages.text(dueAt, zone: timeZone)
            section["overdue"] = acknowledgedAt == nil && dueAt <= now
        }
        let main = fragment.main.replacingOccurrences(of: Self.acknowledgementMarker, with: templates.renderMain("acknowledge", section))
        return Self.html(templates.layout(main: main, WebPages.layout(fragment.title, identity)), identity: identity)
    }

    /// The form's `POST`: acknowledges, then shows the announcement again (303).
    @Sendable func acknowledge(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        guard let user = identity.user else { throw AuthService.unauthorized("Sign in to confirm you have read it.") }
        let id = try AnnouncementController.announcementID(context)
        guard let acknowledging else { throw APIError.notFound() }
        // The round the page showed: a new round asked since then is not confirmed unread.
        _ = try await acknowledging.acknowledge(id, by: user, round: try AcknowledgementController.round(form["round"].map { [$0] } ?? []))
        return Self.redirect(to: "/announcements/\(id)")
    }

    /// The posts waiting for the signed-in reader's confirmation, earliest due first (the
    /// first 100: a reader with more has a bigger problem than paging).
    @Sendable func pendingPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        guard let user = identity.user else { throw AuthService.unauthorized("Sign in to see what waits for your confirmation.") }
        guard let acknowledging else { throw APIError.notFound() }
        let now = now()
        let (items, total) = try await acknowledging.store.pending(for: user.id, offset: 0, limit: 100)
        var page = WebPages.layout("To acknowledge", identity)
        page["items"] = items.map { item -> [String: Any] in
            var entry: [String: Any] = ["id": item.id, "title": item.title]
            if let dueAt = item.acknowledgement.dueAt {
                entry["dueISO"] = WebPages.iso(dueAt)
                entry["dueText"] = WebPages.text(dueAt, zone: timeZone)
                entry["overdue"] = dueAt <= now
            }
            return entry
        }
        page["hasItems"] = !items.isEmpty
        page["total"] = total
        page["noun"] = total == 1 ? "announcement" : "announcements"
        page["verb"] = total == 1 ? "waits" : "wait"
        return Self.html(templates.render("acknowledgements", page), identity: identity)
    }

    /// The editors' reach page.
    @Sendable func reachPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let item = try await editable(try AnnouncementController.announcementID(context), identity)
        guard let acknowledging else { throw APIError.notFound() }
        let report = try await acknowledging.reporter.report(item)
        var page = WebPages.layout("Reach: \(item.title)", identity)
        page["id"] = item.id
        page["title"] = item.title
        page["required"] = report.required
        if report.round > 0 { page["round"] = report.round }
        if let dueAt = report.dueAt {
            page["dueISO"] = WebPages.iso(dueAt)
            page["dueText"] = WebPages.text(dueAt, zone: timeZone)
        }
        for (name, value) in [
            ("audience", report.audience), ("acknowledged", report.acknowledged), ("pending", report.pending), ("overdue", report.overdue),
            ("opened", report.opened),
        ] {
            page[name] = value
        }
        if report.formerEmployees > 0 { page["formerEmployees"] = report.formerEmployees }
        page["departments"] = report.departments.map { department -> [String: Any] in
            [
                "name": department.name, "audience": department.audience, "audienceOrOne": max(department.audience, 1),
                "acknowledged": department.acknowledged, "pending": department.pending,
                "percent": department.audience == 0 ? 0 : department.acknowledged * 100 / department.audience,
            ]
        }
        return Self.html(templates.render("reach", page), identity: identity)
    }

    /// The named list as CSV, for the reach page's download link (a browser cannot ask for
    /// `text/csv` with a link).
    @Sendable func reachCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try PathID.parse(context, allowingSuffix: nil, notFound: "No announcement has this id.")
        let item = try await editable(id, identity)
        guard let acknowledging else { throw APIError.notFound() }
        return ReachCSV.response(of: item, reporter: acknowledging.reporter)
    }
}
