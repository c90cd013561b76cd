import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import NIOCore

/// What selects a public answer: the request target as sent (for one item, less the query
/// parameters its answer never reads: ``canonicalTarget(_:)``), the request headers the answers
/// vary on (`Vary: Accept, Accept-Version, Spearal-PropertyFilter`, and `Cookie` for web pages)
/// and the validator a client revalidates with (`If-None-Match`: the application answers it
/// with a 304 or the 200).
///
/// Keeping answers by this key is right only while every request header that can change a
/// signed-out answer is either part of the key or keeps a request from having one, and answers
/// name in `Vary` each header they depend on. A route or middleware that starts reading another
/// request header must add it to `Vary` (answers varying on unknown headers are not kept), or
/// here.
///
/// Only a request that could not change its answer by anything else has a key: a `GET` without
/// a body, other conditions, ranges, cache directives or `Connection: close`, signed out (and
/// then without cookies), with one `Authorization: Bearer` token, or from a browser with a
/// session cookie (`intranet_session`, which is all a signed-in page reads of the cookies). A
/// signed-in request's answer is kept under the caller's view instead of the token
/// (``forView(_:)``): what the caller may see, shared with every caller who may see the same
/// (``ResponseCache/view(for:)``). A browser's page is personal (their name, their CSRF token):
/// it is kept per view *and role* as a ``PersonalPage`` the application offers, and filled in
/// for each caller (``isPage``).
struct PublicAnswerKey: Hashable, Sendable {
    /// The request headers an answer may vary on; an answer varying on others is not kept.
    static let selectingHeaders: Set<String> = ["accept", "accept-version", "spearal-propertyfilter", "cookie"]
    /// Longest request target given a key; longer ones go to the application.
    static let maxTargetLength = 2_048
    /// Longest `Accept`, `Accept-Version` or (all lines of) `Spearal-PropertyFilter` value given a key.
    static let maxHeaderLength = 512

    /// Request headers that make an answer conditional, partial or personal beyond a bearer
    /// token (which is part of the key instead).
    private static let disqualifyingHeaders: Set<HTTPField.Name> = [
        .ifMatch, .ifModifiedSince, .ifUnmodifiedSince, .ifRange, .csrfToken,
        .range, .cacheControl, HTTPField.Name("Pragma")!, .transferEncoding, .expect,
    ]

    /// The request target, less the query parameters its path's answer never reads
    /// (``canonicalTarget(_:)``).
    let target: String
    let accept: String?
    let acceptVersion: String?
    /// The filter's header lines, joined by a line feed (which no header value holds), so
    /// lines split differently never share a key.
    let propertyFilter: String?
    /// The validator sent; in a page's key (whose tag is each person's own), only in the
    /// request's.
    private(set) var ifNoneMatch: String?
    /// The SHA-256 of the session token of a signed-in request as it came (which finds its
    /// session); `nil` in a key answers are kept under.
    private(set) var tokenHash: String?
    /// The session token of a browser's request as it came (its page's CSRF token is derived
    /// from it); `nil` in a key answers are kept under.
    private(set) var sessionCookie: String?
    /// Whether the request signs in with a session cookie: a browser's, whose answer is a page
    /// filled in per person.
    let isPage: Bool
    /// The view of a signed-in caller, in a key answers are kept under.
    private(set) var view: String?

    /// The key a signed-in request's answer is kept under: the caller's view instead of their
    /// token (for a page, ``pageView(_:role:)``).
    func forView(_ view: String) -> PublicAnswerKey {
        var key = self
        key.tokenHash = nil
        key.sessionCookie = nil
        if isPage { key.ifNoneMatch = nil }
        key.view = view
        return key
    }

    /// The view a page is kept under: the layout around the shared part differs by role (an
    /// editor's links), so editors and admins, who share a view of the posts, do not share pages.
    static func pageView(_ view: String, role: UserRole) -> String {
        "page|\(view)|\(role.rawValue)"
    }

    /// The data an answer to this request is read from: the domain its path reads
    /// (``ChangeDomains/read(byPath:)``).
    var domains: ChangeDomains {
        ChangeDomains.read(byPath: target.prefix { $0 != "?" && $0 != "#" })
    }

    /// Bytes the key holds, counted against the cache's budget.
    var size: Int {
        [target, accept, acceptVersion, propertyFilter, ifNoneMatch, view].reduce(64) { $0 + ($1?.utf8.count ?? 0) }
    }

    /// Whether a request asks to close the connection after its answer, which the application
    /// then does.
    static func asksToClose(_ request: HTTPRequest) -> Bool {
        request.headerFields[values: .connection].contains { $0.lowercased().contains("close") }
    }

    /// Reads the request's header fields in one pass (this runs for every request on the event
    /// loop): any disqualifying field, a body or `Connection: close` means no key.
    init?(_ request: HTTPRequest) {
        guard request.method == .get, let target = request.path, target.utf8.count <= Self.maxTargetLength else { return nil }
        var accept: String?
        var acceptVersion: String?
        var propertyFilter: String?
        var ifNoneMatch: String?
        var tokenHash: String?
        var sessionCookie: String?
        var cookies: [String] = []
        for field in request.headerFields {
            switch field.name {
            case .accept: accept = Self.appending(field.value, to: accept, separator: ",")
            case .acceptVersion: acceptVersion = Self.appending(field.value, to: acceptVersion, separator: ", ")
            case .spearalPropertyFilter: propertyFilter = Self.appending(field.value, to: propertyFilter, separator: "\n")
            case .ifNoneMatch: ifNoneMatch = Self.appending(field.value, to: ifNoneMatch, separator: ", ")
            case .authorization:
                guard tokenHash == nil, field.value.utf8.count <= Self.maxHeaderLength,
                    let token = SessionToken.bearer(in: field.value)
                else { return nil }
                tokenHash = SessionToken.hash(token)
            case .cookie: cookies.append(field.value)
            case .contentLength where field.value != "0": return nil
            case .connection where field.value.lowercased().contains("close"): return nil
            case let name where Self.disqualifyingHeaders.contains(name): return nil
            default: continue
            }
        }
        guard [accept, acceptVersion, propertyFilter, ifNoneMatch].allSatisfy({ ($0?.utf8.count ?? 0) <= Self.maxHeaderLength }) else {
            return nil
        }
        // Cookies without a session (a sign-in form's CSRF cookie) may change a page: the
        // application answers. With a session, the page reads nothing else of them.
        if !cookies.isEmpty {
            guard tokenHash == nil, cookies.reduce(0, { $0 + $1.utf8.count }) <= Self.maxHeaderLength * 8,
                let token = Cookies(from: cookies)[WebCookies.session]?.value, !token.isEmpty
            else { return nil }
            tokenHash = SessionToken.hash(token)
            sessionCookie = token
        }
        self.isPage = sessionCookie != nil
        self.target = Self.canonicalTarget(target)
        self.accept = accept
        self.acceptVersion = acceptVersion
        self.propertyFilter = propertyFilter
        self.ifNoneMatch = ifNoneMatch
        self.tokenHash = tokenHash
        self.sessionCookie = sessionCookie
    }

    /// The query parameters an item's answer reads, by the path before its id: an item's
    /// answer reads nothing else of the query, API or page (tested for each).
    private static let itemParameters: [(path: String, names: Set<String>)] = [
        ("/announcements/", ["fields"]), ("/people/", ["fields", "expand"]),
    ]

    /// `target` without the query parameters its answer never reads, so that an item linked
    /// with a newsletter's `utm_source` or a cache-busting `_=<time>` shares the item's kept
    /// answer: only for one item (`/announcements/2`, `/people/7`), whose answer reads only the
    /// parameters above. Elsewhere the query is kept whole: a list carries parameters it does
    /// not know on into its paging links, so each query string is an answer of its own.
    static func canonicalTarget(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let path = target[..<mark]
        guard let names = itemParameters.first(where: { rule in
            path.hasPrefix(rule.path) && path.count > rule.path.count
                && path.dropFirst(rule.path.count).allSatisfy { $0.isASCII && $0.isNumber }
        })?.names else { return target }
        let read = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).filter { pair in
            names.contains(ListQuery.decode(pair.prefix { $0 != "=" }))
        }
        return read.isEmpty ? String(path) : path + "?" + read.joined(separator: "&")
    }

    /// `value` after `existing` (another line of the same field), or `value` alone.
    private static func appending(_ value: String, to existing: String?, separator: String) -> String {
        existing.map { $0 + separator + value } ?? value
    }
}

/// A whole `200` (or a `304` to a revalidation) that any signed-out caller may be given, as the
/// application wrote it, less the headers that belong to one exchange (`Date`, `X-Request-Id`);
/// or, for a signed-in request, an answer every caller of the same view may be given, and only
/// while the server remembers their session without asking the database; or a signed-in page,
/// the same for every caller of one view and role but for the places filled in per person.
struct PublicAnswer: Sendable {
    /// Largest body kept; larger answers are always built by the application.
    static let maxBodySize = 1 << 20

    let head: HTTPResponse
    let body: ByteBuffer
    /// A page's shared part, which ``personalized(name:csrf:ifNoneMatch:)`` fills in; `body`
    /// is then empty.
    let page: PersonalPage?

    /// The answer to keep, or `nil` when `head` does not allow keeping it (``mayKeep(_:signedIn:)``).
    init?(head: HTTPResponse, body: ByteBuffer, signedIn: Bool = false) {
        guard Self.mayKeep(head, signedIn: signedIn), body.readableBytes <= Self.maxBodySize else { return nil }
        self.head = Self.withoutExchangeFields(head)
        self.body = body
        self.page = nil
    }

    /// A signed-in page to keep: the head the application sent one caller with `page`, or `nil`
    /// when the head does not allow keeping it or is not the `200` of that page.
    init?(head: HTTPResponse, page: PersonalPage) {
        guard head.status == .ok, Self.mayKeep(head, signedIn: true), page.size <= Self.maxBodySize,
            head.headerFields[.contentType] == page.contentType
        else { return nil }
        self.head = Self.withoutExchangeFields(head)
        self.body = ByteBuffer()
        self.page = page
    }

    /// The page's head and body for one person, as ``PersonalPage/response(name:csrf:for:)``
    /// gives them: a `304` with the head's validators and headers when `ifNoneMatch` holds
    /// their tag.
    func personalized(name: String, csrf: String, ifNoneMatch: String?) -> (head: HTTPResponse, body: ByteBuffer)? {
        guard let page else { return nil }
        let tag = page.tag(name: name, csrf: csrf)
        var head = head
        head.headerFields[.eTag] = tag
        if EntityTag.noneMatchHits(ifNoneMatch, etag: tag) {
            head.status = .notModified
            head.headerFields[.contentType] = nil
            head.headerFields[.contentLength] = nil
            return (head, ByteBuffer())
        }
        let body = page.body(name: name, csrf: csrf)
        head.headerFields[.contentLength] = String(body.readableBytes)
        return (head, body)
    }

    private static func withoutExchangeFields(_ head: HTTPResponse) -> HTTPResponse {
        var head = head
        head.headerFields[.date] = nil
        head.headerFields[.requestID] = nil
        return head
    }

    /// Whether an answer with this head may be kept, whatever its body: only a `200` or `304`
    /// without `no-store`, varying on no request header beyond
    /// ``PublicAnswerKey/selectingHeaders``, setting no cookie, and marked `Cache-Control: public`
    /// (signed out) or `private` (signed in: for the callers of one view, never a shared cache).
    static func mayKeep(_ head: HTTPResponse, signedIn: Bool = false) -> Bool {
        guard head.status == .ok || head.status == .notModified, head.headerFields[.setCookie] == nil else { return false }
        let directives = Set(tokens(head.headerFields[values: .cacheControl]).map { $0.prefix { $0 != "=" } })
        let scope: Substring = signedIn ? "private" : "public"
        let otherScope: Substring = signedIn ? "public" : "private"
        guard directives.contains(scope), !directives.contains(otherScope), !directives.contains("no-store") else {
            return false
        }
        return tokens(head.headerFields[values: .vary]).allSatisfy(PublicAnswerKey.selectingHeaders.contains)
    }

    /// The comma-separated, lower-cased tokens of a header's values.
    private static func tokens(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}
