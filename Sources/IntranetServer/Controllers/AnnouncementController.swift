import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import IntranetHTML
import NIOCore

/// Serves `/announcements` for every API version: the negotiated version picks the DTO, not a
/// copy of the controller.
struct AnnouncementController: Sendable {
    let repository: any AnnouncementRepository
    let cache: ResponseCache
    /// What every body written goes through (with the embeds the admin allows).
    let sanitizer: HTMLSanitizer
    /// The largest request body accepted, in bytes.
    let maxBodySize: Int
    /// The clock publication, expiry and pins are read against (the repository's).
    var now: @Sendable () -> Date = { Date() }
    /// Readers' acknowledgements: each reader's own on the 3.0 detail, and `?pending=true`.
    var acknowledgements: AcknowledgementStore?
    /// Where signed-in readers' opens of a detail are counted.
    var opens: OpenCounter?

    static let collectionPath = "/announcements"

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.collectionPath, list)
        routes.add(.post, Self.collectionPath, create)
        routes.add(.get, "\(Self.collectionPath)/{id}", show)
        routes.add(.put, "\(Self.collectionPath)/{id}", replace)
        routes.add(.patch, "\(Self.collectionPath)/{id}", patch)
        routes.add(.delete, "\(Self.collectionPath)/{id}", delete)
    }

    // MARK: Reads

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let rawQuery = request.uri.query ?? ""
        var query = try ListQuery.parse(rawQuery)
        if query.isPending {
            return try await pending(query, request: request, context: context)
        }
        if query.request.listing != .live {
            // Drafts, scheduled and expired posts are for those who may publish them.
            _ = try context.requireRole(.editor)
        }
        let representation = try Representation(request, context: context, primary: .announcementSummary)
        query.request.pinnedFirst = representation.version >= .v3_0
        let view = try await cache.view(for: context.user)
        let visibility = view.visibility
        let key = "list|\(representation.version.rawValue)|\(representation.cacheKey)|\(view.key)|\(rawQuery)"
        let listRequest = query.request
        let entry = try await cached(key, view: view, for: visibility) {
            let now = now()
            let (items, total) = try await repository.list(listRequest, visibility: visibility)
            let links = PageLinks(query: query, path: Self.collectionPath, total: total)
            return try AnnouncementRepresentation.list(items, as: representation, links: links, at: now)
        }
        return entry.response(for: request)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.announcementID(context)
        let representation = try Representation(request, context: context, primary: .announcement)
        let view = try await cache.view(for: context.user)
        let visibility = view.visibility
        let key = "detail|\(representation.version.rawValue)|\(representation.cacheKey)|\(view.key)|\(id)"
        let entry = try await cached(key, view: view, for: visibility) {
            let now = now()
            guard let announcement = try await repository.find(id: id, visibility: visibility) else { throw APIError.notFound() }
            return try AnnouncementRepresentation.detail(announcement, as: representation, showsReaders: visibility == .everything, at: now)
        }
        if let user = context.user {
            opens?.noteOpen(of: id, by: user.id)
            if entry.asksAcknowledgement, representation.version >= .v3_0, let acknowledgements {
                return try await personalDetail(key, id: id, user: user, view: view, as: representation, acknowledgements: acknowledgements)
                    .response(for: request)
            }
        }
        return entry.response(for: request)
    }

    /// The 3.0 detail of an announcement that asks for acknowledgement, with when `user`
    /// acknowledged the current round: kept per reader (until an acknowledgement or a change
    /// of announcements), tagged apart from the shared one, and `Vary: Authorization` so that
    /// no shared cache keeps it.
    private func personalDetail(
        _ key: String, id: Int, user: User, view: ResponseCache.View, as representation: Representation, acknowledgements: AcknowledgementStore
    ) async throws -> CachedResponse {
        try await cache.answer(for: "\(key)|ack|\(user.id)", dependsOn: [.announcements, .acknowledgements], keyedBy: view) {
            let now = now()
            guard let announcement = try await repository.find(id: id, visibility: view.visibility) else { throw APIError.notFound() }
            let given = try await acknowledgements.acknowledgedAt(id, round: announcement.acknowledgement.round, by: user.id)
            var entry = try AnnouncementRepresentation.detail(
                announcement, as: representation, showsReaders: view.visibility == .everything, at: now, acknowledgedAt: given)
            entry.headers[.cacheControl] = "private, no-cache"
            entry.headers[.vary] = Self.personalVary
            return entry
        }
    }

    /// `Vary` of the answers that are one reader's own: never kept by a shared cache, nor by
    /// the server's early answers (which keep only answers varying on the headers they key on).
    static let personalVary = VersionMiddleware.vary + ", Authorization, Cookie"

    /// The posts waiting for the signed-in reader's acknowledgement (`?pending=true`), earliest
    /// due date first: the reader's own list, kept per reader until an acknowledgement or a
    /// change of announcements or people (who is in an audience).
    private func pending(_ query: ListQuery, request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { throw AuthService.unauthorized("Sign in to see what waits for your acknowledgement.") }
        guard query.request.listing == .live else {
            throw APIError.badRequest("Query parameter 'pending' lists published announcements: it cannot be combined with 'status'.")
        }
        guard let acknowledgements else { throw APIError.notFound() }
        let representation = try Representation(request, context: context, primary: .announcementSummary)
        let view = try await cache.view(for: user)
        let key = "pending|\(user.id)|\(representation.version.rawValue)|\(representation.cacheKey)|\(request.uri.query ?? "")"
        let slice = query.request
        let entry = try await cache.answer(for: key, dependsOn: [.announcements, .people, .acknowledgements], keyedBy: view) {
            let now = now()
            let (items, total) = try await acknowledgements.pending(for: user.id, offset: slice.offset, limit: slice.limit)
            let links = PageLinks(query: query, path: Self.collectionPath, total: total)
            var fresh = try AnnouncementRepresentation.list(items, as: representation, links: links, at: now)
            fresh.headers[.cacheControl] = "private, no-cache"
            fresh.headers[.vary] = Self.personalVary
            return fresh
        }
        return entry.response(for: request)
    }

    /// The cached answer for `key` (made with `view`), or a fresh one built and cached: one per
    /// view, shared by every caller who may see the same.
    ///
    /// Answers say who may keep them: signed-out answers are the same for every signed-out
    /// caller (`public`), the others only for the signed-in caller's own cache (`private`);
    /// either is revalidated with its `ETag` before reuse (`no-cache`), since any write may
    /// change it.
    private func cached(
        _ key: String,
        view: ResponseCache.View,
        for visibility: Visibility,
        build: () async throws -> CachedResponse
    ) async throws -> CachedResponse {
        try await cache.answer(for: key, dependsOn: .announcements, keyedBy: view) {
            var fresh = try await build()
            fresh.headers[.cacheControl] = visibility == .unrestricted ? "public, no-cache" : "private, no-cache"
            return fresh
        }
    }

    // MARK: Writes

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.editor)
        let representation = try Representation(request, context: context, primary: .announcement)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: false)
        let content = try AnnouncementInput.draft(from: json, sanitizer: sanitizer)(nil)
        let created = try await repository.create(content)
        var entry = try AnnouncementRepresentation.detail(created, as: representation, showsReaders: true, at: now())
        entry.headers[.location] = "\(Self.collectionPath)/\(created.id)"
        return entry.response(status: .created)
    }

    @Sendable func replace(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.announcementID(context)
        try await requireEditor(of: id, context: context)
        let representation = try Representation(request, context: context, primary: .announcement)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: false)
        let replacement = try AnnouncementInput.draft(from: json, sanitizer: sanitizer)
        let precondition = EntityTag.precondition(request.headers[.ifMatch], id: id)
        let updated = try await repository.update(id: id, precondition: precondition) { current in replacement(current) }
        return try AnnouncementRepresentation.detail(updated, as: representation, showsReaders: true, at: now()).response(status: .ok)
    }

    @Sendable func patch(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.announcementID(context)
        try await requireEditor(of: id, context: context)
        let representation = try Representation(request, context: context, primary: .announcement)
        // A Spearal body is a partial object: the same merge as JSON Merge Patch.
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: true)
        let merge = try AnnouncementInput.mergePatch(from: json, sanitizer: sanitizer)
        let precondition = EntityTag.precondition(request.headers[.ifMatch], id: id)
        let updated = try await repository.update(id: id, precondition: precondition, change: merge)
        return try AnnouncementRepresentation.detail(updated, as: representation, showsReaders: true, at: now()).response(status: .ok)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.announcementID(context)
        try await requireEditor(of: id, context: context)
        let precondition = EntityTag.precondition(request.headers[.ifMatch], id: id)
        try await repository.delete(id: id, precondition: precondition)
        return Response(status: .noContent)
    }

    /// Checks that the caller may change announcement `id`.
    ///
    /// - Throws: 401 when signed out; for a reader, 404 when the announcement is hidden from
    ///   them (so a write cannot probe for it) and 403 otherwise.
    private func requireEditor(of id: Int, context: AppRequestContext) async throws {
        if let user = context.user, user.role < .editor,
           try await repository.find(id: id, visibility: context.visibility) == nil {
            throw APIError.notFound()
        }
        _ = try context.requireRole(.editor)
    }

    /// The `{id}` of the path (``PathID``), optionally followed by `.json`.
    static func announcementID(_ context: AppRequestContext) throws -> Int {
        try PathID.parse(context, allowingSuffix: ".json", notFound: "No announcement has this id.")
    }
}
