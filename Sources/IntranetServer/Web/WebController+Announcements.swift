import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import IntranetHTML
import NIOCore

/// The announcement pages: the list (with search and paging), one announcement, the stylesheet,
/// and the editors' forms to write, change and delete announcements.
extension WebController {
    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let fields = WebForm.parse(request.uri.query ?? "")
        let query = fields["q"].map { String(WebForm.withoutControlCharacters($0).trimmingCharacters(in: .whitespacesAndNewlines).prefix(WebPages.maxSearchLength)) }
            .flatMap { $0.isEmpty ? nil : $0 }
        guard let number = Int(fields["page"] ?? "1"), number >= 1, number <= 1_000_000 else {
            throw APIError.notFound("There is no such page of announcements.")
        }
        var listing = ListRequest.Listing.live
        if let status = fields["status"] {
            guard let chosen = ListRequest.Listing(rawValue: status), chosen != .live else {
                throw APIError.notFound("There is no such list of announcements.")
            }
            // Drafts, scheduled and expired posts are for those who may publish them.
            _ = try requireRole(.editor, identity)
            listing = chosen
        }
        let view = try await cache.view(for: identity.user)
        let key = "web|list|\(view.key)|\(listing.rawValue)|\(number)|\(query ?? "")"
        return try await page(key, reads: .announcements, view: view, identity: identity, request: request) {
            var list = ListRequest(sort: .createdAt, isDescending: true, offset: (number - 1) * WebPages.pageSize, limit: WebPages.pageSize)
            list.search = query
            list.listing = listing
            list.pinnedFirst = listing == .live
            let now = now()
            let (items, total) = try await repository.list(list, visibility: view.visibility)
            let pages = max(1, (total + WebPages.pageSize - 1) / WebPages.pageSize)
            var context: [String: Any] = [:]
            context["items"] = items.map { WebPages.announcement($0, sanitizer: sanitizer, at: now, zone: timeZone) }
            context["hasItems"] = !items.isEmpty
            context["total"] = total
            context["resultNoun"] = total == 1 ? "announcement" : "announcements"
            let canEdit = (identity.user?.role ?? .reader) >= .editor
            context["canEdit"] = canEdit
            if canEdit { context["listings"] = Self.listingTabs(current: listing) }
            if let query { context["query"] = query }
            if listing != .live { context["listingName"] = Self.listingName(listing) }
            if pages > 1 {
                let status = listing == .live ? nil : listing.rawValue
                var paging: [String: Any] = ["page": number, "pages": pages]
                if number > 1 { paging["previous"] = WebPages.listLink(page: number - 1, query: query, status: status) }
                if number < pages { paging["next"] = WebPages.listLink(page: number + 1, query: query, status: status) }
                context["paging"] = paging
            }
            let title = query.map { "“\($0)”" } ?? (listing == .live ? "Announcements" : Self.listingName(listing))
            return PageFragment(title: title, main: templates.renderMain("index", context))
        }
    }

    /// The editors' tabs over the lists: published, drafts, scheduled, expired.
    private static func listingTabs(current: ListRequest.Listing) -> [[String: Any]] {
        ListRequest.Listing.allCases.map { listing in
            [
                "name": listingName(listing), "href": listing == .live ? "/" : "/?status=\(listing.rawValue)",
                "current": listing == current,
            ]
        }
    }

    private static func listingName(_ listing: ListRequest.Listing) -> String {
        switch listing {
        case .live: "Published"
        case .draft: "Drafts"
        case .scheduled: "Scheduled"
        case .expired: "Expired"
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let view = try await cache.view(for: identity.user)
        let key = "web|detail|\(view.key)|\(id)"
        let build = { () async throws -> PageFragment in
            let now = now()
            guard let item = try await repository.find(id: id, visibility: view.visibility) else {
                throw APIError.notFound("There is no announcement at this address, or it is not shown to you.")
            }
            var page = WebPages.announcement(item, sanitizer: sanitizer, at: now, zone: timeZone)
            page["canEdit"] = (identity.user?.role ?? .reader) >= .editor
            let rule = item.acknowledgement
            return PageFragment(title: item.title, main: templates.renderMain("announcement", page), acknowledgement: rule.required ? rule : nil)
        }
        let fragment = try await cache.fragment(for: "web|main|" + key, dependsOn: .announcements, keyedBy: view, build: build)
        if let user = identity.user { opens?.noteOpen(of: id, by: user.id) }
        if let rule = fragment.acknowledgement {
            return try await acknowledgementPage(fragment, id: id, identity: identity, rule: rule)
        }
        return try await page(key, reads: .announcements, view: view, identity: identity, request: request, build: build)
    }

    @Sendable func stylesheet(_ request: Request, context: AppRequestContext) async throws -> Response {
        let entry = CachedResponse(
            body: templates.stylesheet, etag: templates.stylesheetTag,
            headers: [.contentType: "text/css; charset=utf-8", .eTag: templates.stylesheetTag, .cacheControl: "public, max-age=3600"])
        return entry.response(for: request)
    }

    @Sendable func script(_ request: Request, context: AppRequestContext) async throws -> Response {
        let entry = CachedResponse(
            body: templates.script, etag: templates.scriptTag,
            headers: [.contentType: "text/javascript; charset=utf-8", .eTag: templates.scriptTag, .cacheControl: "public, max-age=3600"])
        return entry.response(for: request)
    }

    @Sendable func newForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try requireRole(.editor, identity)
        return editPage(
            identity, heading: "New announcement", action: "/announcements", cancel: "/", title: "", body: "", revision: nil,
            publishing: WebPublishingForm.values(nil, zone: timeZone))
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        _ = try requireRole(.editor, identity)
        if form["preview"] != nil {
            return editPage(
                identity, heading: "New announcement", action: "/announcements", cancel: "/", title: form["title"] ?? "",
                body: form["body"] ?? "", revision: nil, publishing: WebPublishingForm.values(form, site: timeZone), preview: preview(of: form))
        }
        do {
            let content = try AnnouncementInput.draft(from: Self.announcementJSON(form, zone: timeZone), sanitizer: sanitizer)(nil)
            let created = try await repository.create(content)
            return Self.redirect(to: "/announcements/\(created.id)")
        } catch let error as APIError where error.status == .unprocessableContent {
            return editPage(
                identity, heading: "New announcement", action: "/announcements", cancel: "/",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: nil, publishing: WebPublishingForm.values(form, site: timeZone),
                errors: Self.messages(error), status: .unprocessableContent)
        }
    }

    @Sendable func editForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let item = try await editable(id, identity)
        return editPage(
            identity, heading: "Edit “\(item.title)”", action: "/announcements/\(id)", cancel: "/announcements/\(id)",
            title: item.title, body: item.markdown ?? item.body ?? "", revision: item.revision,
            publishing: WebPublishingForm.values(item, zone: timeZone, at: now()), attachments: (id, item.attachments))
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        let id = try AnnouncementController.announcementID(context)
        let current = try await editable(id, identity)
        // The revision the form was made from: a change made meanwhile is not overwritten.
        let precondition: WritePrecondition = Int(form["revision"] ?? "").map { .revision(in: [$0]) } ?? .none
        let heading = "Edit “\(current.title)”"
        if form["preview"] != nil {
            return editPage(
                identity, heading: heading, action: "/announcements/\(id)", cancel: "/announcements/\(id)", title: form["title"] ?? "",
                body: form["body"] ?? "", revision: Int(form["revision"] ?? ""), publishing: WebPublishingForm.values(form, site: timeZone),
                preview: preview(of: form), attachments: (id, current.attachments))
        }
        do {
            let replacement = try AnnouncementInput.draft(from: Self.announcementJSON(form, zone: timeZone), sanitizer: sanitizer)
            _ = try await repository.update(id: id, precondition: precondition) { replacement($0) }
            return Self.redirect(to: "/announcements/\(id)")
        } catch let error as APIError where error.status == .unprocessableContent {
            return editPage(
                identity, heading: heading, action: "/announcements/\(id)", cancel: "/announcements/\(id)",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: Int(form["revision"] ?? ""),
                publishing: WebPublishingForm.values(form, site: timeZone), attachments: (id, current.attachments), errors: Self.messages(error),
                status: .unprocessableContent)
        } catch let error as APIError where error.status == .preconditionFailed {
            return editPage(
                identity, heading: heading, action: "/announcements/\(id)", cancel: "/announcements/\(id)",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: current.revision,
                publishing: WebPublishingForm.values(form, site: timeZone), attachments: (id, current.attachments), errors: ["Someone else changed this announcement after you opened it (it is now titled “\(current.title)”). Your text is below: save again to replace theirs, or cancel."],
                status: .conflict)
        }
    }

    @Sendable func confirmDelete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let item = try await editable(id, identity)
        return confirmPage(
            identity, heading: "Delete “\(item.title)”?", question: "The announcement is removed for everyone. This cannot be undone.",
            action: "/announcements/\(id)/delete", confirm: "Delete the announcement", cancel: "/announcements/\(id)")
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try await checkedForm(request, identity)
        let id = try AnnouncementController.announcementID(context)
        _ = try await editable(id, identity)
        try await repository.delete(id: id, precondition: .none)
        return Self.redirect(to: "/")
    }

    /// The body the form would save, made HTML (from Markdown when so chosen) and sanitised as
    /// it would be stored: what the editor sees before saving.
    func preview(of form: [String: String]) -> String {
        let text = (form["body"] ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        if let problem = AnnouncementRules.bodyProblem(text) {
            return "<p>" + HTMLSanitizer.escape("The body \(problem): it cannot be saved.") + "</p>"
        }
        let html = form["format"] == "markdown" ? Markdown.html(text) : text
        return sanitizer.sanitize(html).html
    }

    /// Announcement `id` for an editor; a reader gets 404 for one hidden from them, as in the API.
    func editable(_ id: Int, _ identity: WebIdentity) async throws -> StoredAnnouncement {
        guard identity.user != nil else { throw AuthService.unauthorized("Sign in first.") }
        guard let item = try await repository.find(id: id, visibility: identity.visibility) else {
            throw APIError.notFound("There is no announcement at this address, or it is not shown to you.")
        }
        _ = try requireRole(.editor, identity)
        return item
    }

    func editPage(
        _ identity: WebIdentity, heading: String, action: String, cancel: String, title: String, body: String, revision: Int?,
        publishing: [String: Any], preview: String? = nil, attachments: (id: Int, [AttachmentDescription])? = nil, errors: [String] = [],
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var page = WebPages.layout(heading, identity)
        page.merge(publishing) { _, new in new }
        if let (id, list) = attachments { page.merge(attachmentsSection(announcementID: id, list)) { _, new in new } }
        if let preview { page["previewHTML"] = preview }
        page["heading"] = heading
        page["action"] = action
        page["cancel"] = cancel
        page["titleValue"] = title
        page["bodyValue"] = body
        if let revision { page["revision"] = revision }
        page["errors"] = errors
        page["hasErrors"] = !errors.isEmpty
        return Self.html(templates.render("edit", page), identity: identity, status: status)
    }}
