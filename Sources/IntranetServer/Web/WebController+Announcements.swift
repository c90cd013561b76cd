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
        let view = try await cache.view(for: identity.user)
        let key = "web|list|\(view.key)|\(number)|\(query ?? "")"
        return try await page(key, reads: .announcements, view: view, identity: identity, request: request) {
            var list = ListRequest(sort: .createdAt, isDescending: true, offset: (number - 1) * WebPages.pageSize, limit: WebPages.pageSize)
            list.search = query
            let (items, total) = try await repository.list(list, visibility: view.visibility)
            let pages = max(1, (total + WebPages.pageSize - 1) / WebPages.pageSize)
            var context: [String: Any] = [:]
            context["items"] = items.map { WebPages.announcement($0, sanitizer: sanitizer) }
            context["hasItems"] = !items.isEmpty
            context["total"] = total
            context["resultNoun"] = total == 1 ? "announcement" : "announcements"
            context["canEdit"] = (identity.user?.role ?? .reader) >= .editor
            if let query { context["query"] = query }
            if pages > 1 {
                var paging: [String: Any] = ["page": number, "pages": pages]
                if number > 1 { paging["previous"] = WebPages.listLink(page: number - 1, query: query) }
                if number < pages { paging["next"] = WebPages.listLink(page: number + 1, query: query) }
                context["paging"] = paging
            }
            return PageFragment(title: query.map { "“\($0)”" } ?? "Announcements", main: templates.renderMain("index", context))
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let view = try await cache.view(for: identity.user)
        return try await page("web|detail|\(view.key)|\(id)", reads: .announcements, view: view, identity: identity, request: request) {
            guard let item = try await repository.find(id: id, visibility: view.visibility) else {
                throw APIError.notFound("There is no announcement at this address, or it is not shown to you.")
            }
            var page = WebPages.announcement(item, sanitizer: sanitizer)
            page["canEdit"] = (identity.user?.role ?? .reader) >= .editor
            return PageFragment(title: item.title, main: templates.renderMain("announcement", page))
        }
    }

    @Sendable func stylesheet(_ request: Request, context: AppRequestContext) async throws -> Response {
        let entry = CachedResponse(
            body: templates.stylesheet, etag: templates.stylesheetTag,
            headers: [.contentType: "text/css; charset=utf-8", .eTag: templates.stylesheetTag, .cacheControl: "public, max-age=3600"])
        return entry.response(for: request)
    }

    @Sendable func newForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        _ = try requireRole(.editor, identity)
        return editPage(identity, heading: "New announcement", action: "/announcements", cancel: "/", title: "", body: "", revision: nil)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        _ = try requireRole(.editor, identity)
        do {
            let content = try AnnouncementInput.draft(from: Self.announcementJSON(form), sanitizer: sanitizer)(nil)
            let created = try await repository.create(content)
            return Self.redirect(to: "/announcements/\(created.id)")
        } catch let error as APIError where error.status == .unprocessableContent {
            return editPage(
                identity, heading: "New announcement", action: "/announcements", cancel: "/",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: nil, errors: Self.messages(error), status: .unprocessableContent)
        }
    }

    @Sendable func editForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try AnnouncementController.announcementID(context)
        let item = try await editable(id, identity)
        return editPage(
            identity, heading: "Edit “\(item.title)”", action: "/announcements/\(id)", cancel: "/announcements/\(id)",
            title: item.title, body: item.body ?? "", revision: item.revision)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let form = try await checkedForm(request, identity)
        let id = try AnnouncementController.announcementID(context)
        let current = try await editable(id, identity)
        // The revision the form was made from: a change made meanwhile is not overwritten.
        let precondition: WritePrecondition = Int(form["revision"] ?? "").map { .revision(in: [$0]) } ?? .none
        let heading = "Edit “\(current.title)”"
        do {
            let replacement = try AnnouncementInput.draft(from: Self.announcementJSON(form), sanitizer: sanitizer)
            _ = try await repository.update(id: id, precondition: precondition) { replacement($0) }
            return Self.redirect(to: "/announcements/\(id)")
        } catch let error as APIError where error.status == .unprocessableContent {
            return editPage(
                identity, heading: heading, action: "/announcements/\(id)", cancel: "/announcements/\(id)",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: Int(form["revision"] ?? ""),
                errors: Self.messages(error), status: .unprocessableContent)
        } catch let error as APIError where error.status == .preconditionFailed {
            return editPage(
                identity, heading: heading, action: "/announcements/\(id)", cancel: "/announcements/\(id)",
                title: form["title"] ?? "", body: form["body"] ?? "", revision: current.revision,
                errors: ["Someone else changed this announcement after you opened it (it is now titled “\(current.title)”). Your text is below: save again to replace theirs, or cancel."],
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
        errors: [String] = [], status: HTTPResponse.Status = .ok
    ) -> Response {
        var page = WebPages.layout(heading, identity)
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
