import Crypto
import Foundation
import HTTPTypes
import RESTRepository

/// Signs requests the way the intranet server checks them (API.md, "Signed requests"):
/// `X-App-Id`, `X-Timestamp` (Unix milliseconds) and `X-Signature`, the lowercase hex
/// HMAC-SHA256 with the app's secret over
/// `timestamp + "\n" + METHOD + "\n" + path-with-query + "\n" + hex(SHA-256(body))`.
///
/// ```swift
/// let signer = IntranetRequestSigner(appID: "ios-app", secret: Data("s3cret".utf8))
/// let configuration = IntranetClientConfiguration(signer: signer.sign)
/// ```
public struct IntranetRequestSigner: Sendable {
    /// `X-App-Id`.
    public static let appIDField = HTTPField.Name("X-App-Id")!
    /// `X-Timestamp`.
    public static let timestampField = HTTPField.Name("X-Timestamp")!

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

    /// Adds `X-App-Id`, `X-Timestamp` and `X-Signature` to a request; pass it as the
    /// configuration's `signer`.
    ///
    /// - Parameters:
    ///   - request: the request to sign.
    ///   - body: the body that will be sent.
    public func sign(_ request: inout HTTPRequest, body: Data?) {
        let timestamp = String(Int64((now().timeIntervalSince1970 * 1000).rounded(.down)))
        let message = Self.canonicalMessage(
            timestamp: timestamp, method: request.method.rawValue,
            pathWithQuery: pathPrefix + (request.path ?? "/"), body: body ?? Data())
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
