import Foundation

/// The id and secret of an app registered on the server (`intranet-server apps create NAME`),
/// for signed requests (docs/api.md, "Signed requests").
///
/// Set it as ``IntranetClientConfiguration/signingKey`` and every request is signed. Its
/// description never shows the secret.
public struct AppSigningKey: Sendable, Equatable, CustomStringConvertible {
    /// The app's registered id, sent as `X-App-Id`.
    public var appID: String
    /// The secret, the HMAC key (its UTF-8 bytes when made from a string).
    public var secret: Data

    /// Creates a key from a secret as the server printed it.
    ///
    /// - Parameters:
    ///   - appID: the app's id.
    ///   - secret: the secret text; its UTF-8 bytes are the HMAC key.
    public init(appID: String, secret: String) {
        self.init(appID: appID, secret: Data(secret.utf8))
    }

    /// Creates a key from raw secret bytes.
    ///
    /// - Parameters:
    ///   - appID: the app's id.
    ///   - secret: the HMAC key.
    public init(appID: String, secret: Data) {
        self.appID = appID
        self.secret = secret
    }

    /// The app id, the secret redacted.
    public var description: String {
        "AppSigningKey(appID: \(appID), secret: <redacted>)"
    }
}
