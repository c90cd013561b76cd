import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Sends browsers' page requests to the web front end, and is its one error boundary.
///
/// A request is a page request when the web front end serves its method and path and
/// - it is a `GET` (or `HEAD`) of a path the API does not serve at all (`/`, `/style.css`,
///   `/announcements/new`, …), or of a path the API serves with any method (`/announcements/{id}`,
///   `/users`, `/login`) whose `Accept` ranks `text/html` above JSON and Spearal (a browser;
///   `curl` and the SDK get the API's answer — for `GET /login` that is the API's 405, `Allow: POST`,
///   as the OpenAPI document says);
/// - or it is a `POST` of a form (`application/x-www-form-urlencoded`), which the API never
///   accepts;
/// - or it is a `GET` (or `HEAD`) of a path nothing serves, from a browser (`Accept` as above):
///   the site's 404 page, where an API client gets the problem body.
///
/// Every page carries a strict `Content-Security-Policy` (the site's own script only, no framing),
/// `X-Content-Type-Options: nosniff`, `Referrer-Policy` and `Vary: Accept, Cookie`. Every
/// failure becomes a page with the right status: 404, 403, 413, the sign-in page for 401, and
/// for anything unexpected a 500 page that names nothing internal, or 503 when the database
/// does not answer.
struct WebMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let web: RouteBook<AppRequestContext>
    let api: [RouteBook<AppRequestContext>]
    let responder: any HTTPResponder<AppRequestContext>
    let templates: WebTemplates
    let repository: any AnnouncementRepository
    let identity: @Sendable (Request) async throws -> WebIdentity
    let contentSecurityPolicy: String
    /// The largest form body accepted, for the 413 page.
    let maxBodySize: Int

    /// The policy for pages: nothing but this site's stylesheet and script (no inline code),
    /// images from this site only (pictures are attached, so a page never loads one from
    /// elsewhere, nor tells another host who reads it), frames from the embed hosts only, and
    /// connections to this site only (the script's live stream).
    static func contentSecurityPolicy(embedHosts: Set<String>) -> String {
        let frames = embedHosts.isEmpty ? "'none'" : embedHosts.sorted().map { "https://\($0)" }.joined(separator: " ")
        return "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-src \(frames); form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard isPage(request) else { return try await next(request, context) }
        var response: Response
        do {
            // An address nothing serves is the 404 page (the router's own not-found answer is
            // an empty body).
            guard web.serves(request.method == .post ? .post : .get, at: request.uri.path) else { throw HTTPError(.notFound) }
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = await errorPage(for: error, request: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.vary] = "Accept, Cookie"
        return response
    }

    /// Whether `request` is for the web front end.
    func isPage(_ request: Request) -> Bool {
        let path = request.uri.path
        switch request.method {
        case .get, .head:
            let apiServes = api.contains { $0.methods(servingRequestPath: path) != nil }
            guard web.serves(.get, at: path) else {
                // Nothing at all serves this address: a browser gets the site's 404 page, an
                // API client the problem body.
                return !apiServes && Self.prefersHTML(request.headers)
            }
            return !apiServes || Self.prefersHTML(request.headers)
        case .post:
            return WebForm.isForm(request) && web.serves(.post, at: path)
        default:
            return false
        }
    }

    /// Whether `Accept` ranks `text/html` above the API's formats.
    static func prefersHTML(_ headers: HTTPFields) -> Bool {
        let accept = headers[values: .accept].joined(separator: ",")
        guard !accept.isEmpty else { return false }
        let ranges = MediaRange.parseList(accept)
        func quality(_ type: String, _ subtype: String) -> Double {
            ranges.filter { $0.admits(type: type, subtype: subtype) }.map(\.quality).max() ?? 0
        }
        let html = quality("text", "html")
        return html > 0 && html > max(quality("application", "json"), quality("application", "spearal"))
    }

    /// The page for a failure.
    private func errorPage(for error: any Error, request: Request, context: Context) async -> Response {
        let error = (error as? WebPageFailure)?.underlying ?? error
        var failure = APIError(error, maxBodySize: maxBodySize)
        if failure.status == .unauthorized {
            return WebController.redirect(to: "/login")
        }
        let heading: String
        var message = failure.detail
        switch failure.status {
        case .notFound:
            heading = "Not found"
            if error is HTTPError { message = "There is no page at this address." }
        case .forbidden:
            heading = "Not allowed"
        case .contentTooLarge:
            heading = "Too large"
        case .internalServerError:
            context.logger.error("web page failed: \(failure.internalDescription ?? failure.detail)")
            if (try? await repository.ping()) == nil {
                failure.status = .serviceUnavailable
                heading = "The intranet is not answering"
                message = "Its database cannot be reached just now. Nothing you did caused this; try again in a few minutes."
            } else {
                heading = "Something went wrong"
                message = "The page could not be shown because of a fault on the server. Try again; if it keeps happening, tell the intranet team the time it happened."
            }
        default:
            heading = failure.status.reasonPhrase
        }
        let who = (try? await identity(request)) ?? WebIdentity(user: nil, sessionToken: nil, csrf: "")
        var page = WebPages.layout(heading, who)
        page["heading"] = heading
        page["message"] = message
        var response = WebController.html(templates.render("error", page), identity: WebIdentity(user: nil, sessionToken: nil, csrf: ""), status: failure.status)
        if failure.status == .serviceUnavailable {
            response.headers[.retryAfter] = "60"
        }
        return response
    }
}

extension HTTPField.Name {
    static var xContentTypeOptions: Self { Self("X-Content-Type-Options")! }
    static var referrerPolicy: Self { Self("Referrer-Policy")! }
    static var xFrameOptions: Self { Self("X-Frame-Options")! }
}
