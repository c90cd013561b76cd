import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import IntranetHTML
import NIOCore

/// Serves the Atom feeds: `GET /feed.atom`, the public announcements, or with `?token=` an
/// account's personal feed (its restricted posts too); and `POST`/`DELETE
/// /users/me/feed-token`, which make (or remake) and revoke that token.
///
/// Both feeds hold the newest 50 announcements live now, as their reader would see them; they
/// answer `If-None-Match` with 304. Feed readers can neither sign in nor sign requests: the
/// feed needs neither, the personal one is guarded by its token (a wrong or revoked token is
/// 404, so that tokens cannot be told apart from nothing), and the token never reaches the
/// access log (it is a redacted parameter).
struct FeedController: Sendable {
    static let path = "/feed.atom"
    static let tokenPath = "/users/me/feed-token"
    /// Entries per feed.
    static let size = 50

    let repository: any AnnouncementRepository
    let cache: ResponseCache
    let tokens: FeedTokens
    let accounts: any AccountRepository
    let sanitizer: HTMLSanitizer
    let allowsAnonymousReading: Bool

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.path, feed)
        routes.add(.post, Self.tokenPath, renewToken)
        routes.add(.delete, Self.tokenPath, revokeToken)
    }

    @Sendable func feed(_ request: Request, context: AppRequestContext) async throws -> Response {
        let tokens = ListQuery.values(named: "token", in: request.uri.query)
        guard tokens.count <= 1 else { throw APIError.badRequest("Give one token.") }
        let user: User?
        if let token = tokens.first {
            guard token.utf8.count <= 128, let id = try await self.tokens.user(forToken: token),
                  let stored = try await accounts.user(id: id) else {
                throw APIError.notFound("There is no feed at this address: the token is unknown or was revoked.")
            }
            user = stored.api
        } else {
            guard allowsAnonymousReading else {
                throw AuthService.unauthorized("This server has no public feed. Ask for your personal feed's address: POST \(Self.tokenPath).")
            }
            user = nil
        }
        let visibility = try await cache.view(for: user).visibility
        let (items, _) = try await repository.list(
            ListRequest(sort: .createdAt, isDescending: true, offset: 0, limit: Self.size), visibility: visibility)
        let feed = AtomFeed.Feed(
            title: user.map { "Intranet announcements for \($0.displayName)" } ?? "Intranet announcements",
            selfPath: Self.path, siteID: try await self.tokens.siteID(), name: user.map { "personal:\($0.id)" } ?? "public", entries: items)
        let body = ByteBuffer(string: AtomFeed.render(feed, sanitizer: sanitizer))
        let etag = EntityTag.forContent(body.readableBytesView, suffix: user == nil ? "" : "-p")
        var headers: HTTPFields = [
            .contentType: "application/atom+xml; charset=utf-8",
            .eTag: etag,
            .cacheControl: user == nil ? "public, no-cache" : "private, no-cache",
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer",
        ]
        if EntityTag.noneMatchHits(request.headers[.ifNoneMatch], etag: etag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// Makes a new token for the signed-in account (the old one stops at once): 201 with the
    /// token and the feed's address. The token is shown this once.
    @Sendable func renewToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireRole(.reader)
        let token = try await tokens.renew(for: user.id)
        let answer = ["token": token, "url": "\(Self.path)?token=\(token)"]
        let body = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(
            status: .created, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Revokes the signed-in account's token: 204 (also when there was none).
    @Sendable func revokeToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireRole(.reader)
        try await tokens.revoke(for: user.id)
        return Response(status: .noContent)
    }
}
