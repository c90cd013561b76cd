import Foundation
import HTTPTypes
import NIOCore

/// What selects a public answer: the request target as sent, the request headers the answers
/// vary on (`Vary: Accept, Accept-Version, Spearal-PropertyFilter`) and the validator a client revalidates with
/// (`If-None-Match`: the application answers it with a 304 or the 200).
///
/// Keeping answers by this key is right only while every request header that can change a
/// signed-out answer is either part of the key or keeps a request from having one, and answers
/// name in `Vary` each header they depend on. A route or middleware that starts reading another
/// request header must add it to `Vary` (answers varying on unknown headers are not kept), or
/// here.
///
/// Only a request that could not change its answer by anything else has a key: a `GET` without
/// a body, other conditions, ranges, cookies, cache directives or `Connection: close`, signed
/// out or with one `Authorization: Bearer` token. A signed-in request's answer is kept under
/// the caller's view instead of the token (``forView(_:)``): what the caller may see, shared
/// with every caller who may see the same (``ResponseCache/view(for:)``).
struct PublicAnswerKey: Hashable, Sendable {
    /// The request headers an answer may vary on; an answer varying on others is not kept.
    static let selectingHeaders: Set<String> = ["accept", "accept-version", "spearal-propertyfilter"]
    /// Longest request target given a key; longer ones go to the application.
    static let maxTargetLength = 2_048
    /// Longest `Accept`, `Accept-Version` or (all lines of) `Spearal-PropertyFilter` value given a key.
    static let maxHeaderLength = 512

    /// Request headers that make an answer conditional, partial or personal beyond a bearer
    /// token (which is part of the key instead).
    private static let disqualifyingHeaders: Set<HTTPField.Name> = [
        .cookie, .ifMatch, .ifModifiedSince, .ifUnmodifiedSince, .ifRange,
        .range, .cacheControl, HTTPField.Name("Pragma")!, .transferEncoding, .expect,
    ]

    let target: String
    let accept: String?
    let acceptVersion: String?
    /// The filter's header lines, joined by a line feed (which no header value holds), so
    /// lines split differently never share a key.
    let propertyFilter: String?
    let ifNoneMatch: String?
    /// The SHA-256 of the bearer token of a signed-in request as it came (which finds its
    /// session); `nil` in a key answers are kept under.
    private(set) var tokenHash: String?
    /// The view of a signed-in caller, in a key answers are kept under.
    private(set) var view: String?

    /// The key a signed-in request's answer is kept under: the caller's view instead of their
    /// token.
    func forView(_ view: String) -> PublicAnswerKey {
        var key = self
        key.tokenHash = nil
        key.view = view
        return key
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
            case .contentLength where field.value != "0": return nil
            case .connection where field.value.lowercased().contains("close"): return nil
            case let name where Self.disqualifyingHeaders.contains(name): return nil
            default: continue
            }
        }
        guard [accept, acceptVersion, propertyFilter, ifNoneMatch].allSatisfy({ ($0?.utf8.count ?? 0) <= Self.maxHeaderLength }) else {
            return nil
        }
        self.target = target
        self.accept = accept
        self.acceptVersion = acceptVersion
        self.propertyFilter = propertyFilter
        self.ifNoneMatch = ifNoneMatch
        self.tokenHash = tokenHash
    }

    /// `value` after `existing` (another line of the same field), or `value` alone.
    private static func appending(_ value: String, to existing: String?, separator: String) -> String {
        existing.map { $0 + separator + value } ?? value
    }
}

/// A whole `200` (or a `304` to a revalidation) that any signed-out caller may be given, as the
/// application wrote it, less the headers that belong to one exchange (`Date`, `X-Request-Id`);
/// or, for a signed-in request, an answer every caller of the same view may be given, and only
/// while the server remembers their session without asking the database.
struct PublicAnswer: Sendable {
    /// Largest body kept; larger answers are always built by the application.
    static let maxBodySize = 1 << 20

    let head: HTTPResponse
    let body: ByteBuffer

    /// The answer to keep, or `nil` when `head` does not allow keeping it (``mayKeep(_:signedIn:)``).
    init?(head: HTTPResponse, body: ByteBuffer, signedIn: Bool = false) {
        guard Self.mayKeep(head, signedIn: signedIn), body.readableBytes <= Self.maxBodySize else { return nil }
        var head = head
        head.headerFields[.date] = nil
        head.headerFields[.requestID] = nil
        self.head = head
        self.body = body
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
