import Crypto
import Foundation

/// The request signature of docs/api.md, "Signed requests": lowercase hex HMAC-SHA256, keyed with the app's secret,
/// over `timestamp + "\n" + METHOD + "\n" + path-with-query + "\n" + hex(SHA-256(body))`.
enum RequestSignature {
    /// How far a signature's timestamp may be from the server's clock, either way.
    static let maxAge: TimeInterval = 5 * 60

    /// The signature of a request, as lowercase hex.
    static func compute(secret: String, timestamp: String, method: String, pathWithQuery: String, body: some Sequence<UInt8>) -> String {
        Data(authenticationCode(secret: secret, timestamp: timestamp, method: method, pathWithQuery: pathWithQuery, body: body)).hexString
    }

    /// Whether `signatureHex` is the signature of the request, compared in constant time.
    static func isValid(
        _ signatureHex: String, secret: String, timestamp: String, method: String, pathWithQuery: String, body: some Sequence<UInt8>
    ) -> Bool {
        guard let provided = bytes(fromHex: signatureHex) else { return false }
        let canonical = canonicalString(timestamp: timestamp, method: method, pathWithQuery: pathWithQuery, body: body)
        return HMAC<SHA256>.isValidAuthenticationCode(provided, authenticating: Data(canonical.utf8), using: SymmetricKey(data: Data(secret.utf8)))
    }

    /// Whether `signatureHex` is the signature of a request whose body's SHA-256 (lowercase hex)
    /// is `bodyHash`, compared in constant time: for a body hashed as it streamed.
    static func isValid(_ signatureHex: String, secret: String, timestamp: String, method: String, pathWithQuery: String, bodyHash: String) -> Bool {
        guard let provided = bytes(fromHex: signatureHex) else { return false }
        let canonical = timestamp + "\n" + method + "\n" + pathWithQuery + "\n" + bodyHash
        return HMAC<SHA256>.isValidAuthenticationCode(provided, authenticating: Data(canonical.utf8), using: SymmetricKey(data: Data(secret.utf8)))
    }

    private static func authenticationCode(secret: String, timestamp: String, method: String, pathWithQuery: String, body: some Sequence<UInt8>) -> HMAC<SHA256>.MAC {
        let canonical = canonicalString(timestamp: timestamp, method: method, pathWithQuery: pathWithQuery, body: body)
        return HMAC<SHA256>.authenticationCode(for: Data(canonical.utf8), using: SymmetricKey(data: Data(secret.utf8)))
    }

    private static func canonicalString(timestamp: String, method: String, pathWithQuery: String, body: some Sequence<UInt8>) -> String {
        let bodyHash = SHA256.hash(data: Data(body)).hexString
        return timestamp + "\n" + method + "\n" + pathWithQuery + "\n" + bodyHash
    }

    private static func bytes(fromHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
