import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// Who a browser request comes from, and the CSRF token its forms must carry.
///
/// A signed-in browser holds the same session token an app would, in an HttpOnly,
/// SameSite=Lax cookie (`intranet_session`); its CSRF token is derived from the session token,
/// so a page of another site can neither read nor guess it. A signed-out browser (the sign-in
/// form) gets a random token in a cookie of its own (`intranet_csrf`), which the form must
/// repeat.
struct WebIdentity: Sendable {
    /// The signed-in user, or `nil`.
    var user: User?
    /// The session token of the signed-in user.
    var sessionToken: String?
    /// The token forms carry.
    var csrf: String
    /// A cookie to set with the answer: a new sign-out CSRF token, or one clearing a dead session.
    var cookieToSet: Cookie?

    /// Whether `form` carries this identity's CSRF token.
    func acceptsForm(_ form: [String: String]) -> Bool {
        guard let sent = form["csrf"] else { return false }
        return WebCookies.constantTimeEqual(sent, csrf)
    }

    /// What the user may see.
    var visibility: Visibility {
        guard let user else { return .unrestricted }
        return user.role >= .editor ? .everything : .reader(userID: user.id)
    }
}

/// The cookies of the web front end and the helpers around them.
enum WebCookies {
    static let session = "intranet_session"
    static let csrf = "intranet_csrf"

    /// The CSRF token of a signed-in session: a digest of its token, never the token itself.
    static func csrfToken(forSession token: String) -> String {
        SHA256.hash(data: Data(("intranet csrf|" + token).utf8)).hexString
    }

    /// A new random token for a signed-out browser.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// The session cookie, valid until the session ends.
    static func sessionCookie(_ token: String, expiresAt: Date, secure: Bool) -> Cookie {
        Cookie(name: session, value: token, expires: expiresAt, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// A cookie that removes `name`.
    static func removal(_ name: String, secure: Bool) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// The signed-out CSRF cookie.
    static func csrfCookie(_ token: String, secure: Bool) -> Cookie {
        Cookie(name: csrf, value: token, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Compares two tokens in time that depends only on their lengths.
    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Reads `application/x-www-form-urlencoded` bodies and query strings.
enum WebForm {
    /// The fields of a form body (the last value wins for a repeated name).
    ///
    /// - Parameters:
    ///   - request: the request whose body is read.
    ///   - limit: the most bytes accepted.
    /// - Throws: ``APIError`` 413 above the limit.
    static func fields(of request: Request, limit: Int) async throws -> [String: String] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw APIError.contentTooLarge(limit: limit)
        }
        return parse(String(buffer: buffer))
    }

    /// The fields of an encoded string such as `a=1&b=two+words`.
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { continue }
            fields[name] = parts.count > 1 ? (decode(parts[1]) ?? "") : ""
        }
        return fields
    }

    /// `text` without control characters (a NUL, an escape), which no form field or search
    /// needs and no page should carry; tabs and line breaks become spaces.
    static func withoutControlCharacters(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.compactMap { scalar in
            guard scalar.properties.generalCategory == .control else { return scalar }
            return scalar == "\t" || scalar == "\n" || scalar == "\r" ? " " : nil
        }))
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Whether a request's body is a form.
    static func isForm(_ request: Request) -> Bool {
        guard let type = request.headers[.contentType]?.lowercased() else { return false }
        return type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/form-data")
    }
}
