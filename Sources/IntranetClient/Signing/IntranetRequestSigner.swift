import Crypto
import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository

/// Signs requests the way the intranet server checks them (docs/api.md, "Signed requests"):
/// `X-App-Id`, `X-Timestamp` (Unix milliseconds) and `X-Signature`, the lowercase hex
/// HMAC-SHA256 with the app's secret over
/// `timestamp + "\n" + METHOD + "\n" + path-with-query + "\n" + hex(SHA-256(body))`.
///
/// The path signed is the one on the wire: the base URL's percent-encoded path (``pathPrefix``)
/// followed by the request's path and percent-encoded query, exactly as `URLSessionTransport`
/// sends them. `GET` and `HEAD` never carry a body, so they sign the hash of the empty string.
///
/// ```swift
/// let configuration = IntranetClientConfiguration(signingKey: AppSigningKey(appID: "ios-app", secret: "s3cret"))
/// // or, with a clock of your own:
/// let signer = IntranetRequestSigner(appID: "ios-app", secret: Data("s3cret".utf8))
/// let custom = IntranetClientConfiguration(signer: signer.sign)
/// ```
public struct IntranetRequestSigner: Sendable {
    /// `X-App-Id`.
    public static let appIDField = HTTPField.Name(SignatureHeaderName.appID)!
    /// `X-Timestamp`.
    public static let timestampField = HTTPField.Name(SignatureHeaderName.timestamp)!

    /// The app's registered id.
    public let appID: String
    /// Put before each request path when the base URL has a path, so the signature covers
    /// the path the server sees (e.g. `/api`).
    public let pathPrefix: String
    private let secret: Data
    private let now: @Sendable () -> Date

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - appID: the app's registered id.
    ///   - secret: the app's secret.
    ///   - pathPrefix: the base URL's path, if any (empty by default).
    ///   - now: the clock for timestamps (the system clock by default).
    public init(appID: String, secret: Data, pathPrefix: String = "", now: @escaping @Sendable () -> Date = Date.init) {
        self.appID = appID
        self.pathPrefix = pathPrefix
        self.secret = secret
        self.now = now
    }

    /// Creates a signer from an app's key.
    ///
    /// - Parameters:
    ///   - key: the app's id and secret.
    ///   - pathPrefix: the base URL's percent-encoded path, if any (empty by default).
    ///   - now: the clock for timestamps (the system clock by default).
    public init(key: AppSigningKey, pathPrefix: String = "", now: @escaping @Sendable () -> Date = Date.init) {
        self.init(appID: key.appID, secret: key.secret, pathPrefix: pathPrefix, now: now)
    }

    /// The ``pathPrefix`` for a base URL: its percent-encoded path without a trailing slash
    /// (`http://h/intra%20net/` gives `/intra%20net`; no path gives the empty string).
    ///
    /// - Parameter baseURL: the base URL requests are resolved against.
    public static func pathPrefix(for baseURL: URL) -> String {
        var path = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Adds `X-App-Id`, `X-Timestamp` and `X-Signature` to a request; pass it as the
    /// configuration's `signer`.
    ///
    /// - Parameters:
    ///   - request: the request to sign.
    ///   - body: the body that will be sent.
    public func sign(_ request: inout HTTPRequest, body: Data?) {
        let timestamp = String(Int64((now().timeIntervalSince1970 * 1000).rounded(.down)))
        // URLSessionTransport never sends a body with GET or HEAD, so none is signed.
        let sentBody = request.method == .get || request.method == .head ? nil : body
        let message = Self.canonicalMessage(
            timestamp: timestamp, method: request.method.rawValue,
            pathWithQuery: pathPrefix + (request.path ?? "/"), body: sentBody ?? Data())
        let mac = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: secret))
        request.headerFields[Self.appIDField] = appID
        request.headerFields[Self.timestampField] = timestamp
        request.headerFields[.xSignature] = Self.hex(mac)
    }

    /// The text that is signed, for checking against the server's implementation.
    public static func canonicalMessage(timestamp: String, method: String, pathWithQuery: String, body: Data) -> String {
        [timestamp, method.uppercased(), pathWithQuery, hex(SHA256.hash(data: body))].joined(separator: "\n")
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }
}
