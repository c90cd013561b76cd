import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// Refuses requests that are not signed by a registered app, when the server requires it
/// (docs/api.md, "Signed requests"): a missing, wrong, more than 5 minutes old, or replayed signature is a 401.
///
/// `/health` is exempt: load balancers probe it and cannot sign; so is `/feed.atom`, which feed
/// readers fetch (the public feed shows what signed-out pages show; a personal one needs its
/// token); and so is the web pages' own live stream (`GET /events` with the session cookie and
/// no `Authorization`), as the pages themselves are.
struct SignatureMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let appID = HTTPField.Name(SignatureHeaderName.appID)!
    static let timestamp = HTTPField.Name(SignatureHeaderName.timestamp)!
    static let signature = HTTPField.Name(SignatureHeaderName.signature)!

    let registry: SigningAppRegistry
    let maxBodySize: Int
    /// The limit of `POST /imports/wordpress`, whose body is hashed in memory here when
    /// requests must be signed.
    var importMaxBytes: Int
    var now: @Sendable () -> Date = { Date() }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.path == "/health" || request.uri.path == FeedController.path || Self.isWebStream(request) || Self.isWebFileRead(request) {
            return try await next(request, context)
        }
        guard let appID = request.headers[Self.appID], let timestamp = request.headers[Self.timestamp],
              let signature = request.headers[Self.signature]?.lowercased()
        else {
            throw Self.refused("This server accepts signed requests only: send X-App-Id, X-Timestamp and X-Signature.")
        }
        let now = self.now()
        guard let milliseconds = Int64(timestamp), milliseconds > 0,
              abs(now.timeIntervalSince1970 - Double(milliseconds) / 1000) <= RequestSignature.maxAge
        else {
            throw Self.refused("X-Timestamp must be the current Unix time in milliseconds (within 5 minutes).")
        }
        var request = request
        if AttachmentController.isUpload(request) {
            // An upload is too large to hold: its hash is taken as it streams, and its last
            // piece is given only once the signature matched.
            let (method, target) = (request.method.rawValue, request.uri.string)
            request.body = Hummingbird.RequestBody(asyncSequence: SignedBodyStream(
                base: request.body, check: { bodyHash in
                    try await verify(
                        signature, appID: appID, timestamp: timestamp, milliseconds: milliseconds, method: method, pathWithQuery: target,
                        bodyHash: bodyHash, now: now)
                }))
            return try await next(request, context)
        }
        let body = try await request.collectBody(upTo: request.uri.path == "/imports/wordpress" ? importMaxBytes : maxBodySize)
        try await verify(
            signature, appID: appID, timestamp: timestamp, milliseconds: milliseconds, method: request.method.rawValue,
            pathWithQuery: request.uri.string, bodyHash: SHA256.hash(data: Data(body.readableBytesView)).hexString, now: now)
        return try await next(request, context)
    }

    /// Checks the signature of a request, whose body's SHA-256 is `bodyHash`, and records its use.
    ///
    /// - Throws: 401 when it does not match or was used before.
    private func verify(
        _ signature: String, appID: String, timestamp: String, milliseconds: Int64, method: String, pathWithQuery: String, bodyHash: String,
        now: Date
    ) async throws {
        guard let secret = try await registry.secret(forApp: appID),
              RequestSignature.isValid(
                signature, secret: secret, timestamp: timestamp, method: method, pathWithQuery: pathWithQuery, bodyHash: bodyHash)
        else {
            throw Self.refused("The request signature does not match.")
        }
        let expiry = Date(timeIntervalSince1970: Double(milliseconds) / 1000 + RequestSignature.maxAge)
        guard try await registry.recordUse(of: signature, until: expiry, now: now) else {
            throw Self.refused("This signature was already used; sign each request anew.")
        }
    }

    private static func refused(_ detail: String) -> APIError {
        APIError(status: .unauthorized, detail: detail, headers: [.wwwAuthenticate: #"Signature realm="intranet""#])
    }
}

/// An upload's body passed on as it comes, hashed on the way; the end is passed on only once
/// `check` accepted the hash of everything (a refused signature ends the body with its error,
/// so nothing is stored).
struct SignedBodyStream<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer
    let base: Base
    let check: @Sendable (String) async throws -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let check: @Sendable (String) async throws -> Void
        var hasher = SHA256()
        var done = false

        mutating func next() async throws -> ByteBuffer? {
            guard !done else { return nil }
            if let buffer = try await base.next() {
                hasher.update(data: Data(buffer.readableBytesView))
                return buffer
            }
            done = true
            try await check(Data(hasher.finalize()).hexString)
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), check: check)
    }
}

extension SignatureMiddleware {
    /// Whether `request` is a web page's live stream: `GET` (or `HEAD`) `/events` signed in with the session
    /// cookie alone, as a browser's `EventSource` sends it.
    static func isWebStream(_ request: Request) -> Bool {
        [.get, .head].contains(request.method) && request.uri.path == EventController.path && request.headers[.authorization] == nil
            && request.cookies[WebCookies.session] != nil
    }

    /// Whether `request` is a browser's read of an attached file (`GET` or `HEAD` with the
    /// session cookie and no `Authorization`), as a page's `<img>` or download link makes it.
    static func isWebFileRead(_ request: Request) -> Bool {
        [.get, .head].contains(request.method) && AttachmentFileController.isFilePath(request.uri.path)
            && request.headers[.authorization] == nil && request.cookies[WebCookies.session] != nil
    }
}
