/// Names of the HTTP headers the intranet API defines beyond the standard ones.
///
/// Kept as plain strings so this module needs no HTTP library; server and client wrap them in
/// their own header-field types.
public enum HeaderName {
    /// The version a client asks for, e.g. `1.0`.
    public static let acceptVersion = "Accept-Version"
    /// The version a response was produced with.
    public static let apiVersion = "API-Version"
    /// Total number of items the caller may see in a paged list.
    public static let total = "X-Total"
    /// The 1-based page number of a paged list response.
    public static let page = "X-Page"
    /// The page size of a paged list response.
    public static let perPage = "X-Per-Page"
    /// The id the server gave the request; it also appears in the server's log lines.
    public static let requestID = "X-Request-Id"
    /// Asks for only some properties of a class: `intranet.Announcement#title,createdAt`, one
    /// header line per class (the JSON twin is the query parameter `fields`).
    public static let spearalPropertyFilter = "Spearal-PropertyFilter"
    /// Names an upload to `POST /imports/wordpress`, so that `GET /imports/progress/{id}` can
    /// tell how far it is.
    public static let importProgressID = "Import-Progress-Id"
}

/// Media types the intranet API speaks.
public enum MediaType {
    /// Plain JSON bodies.
    public static let json = "application/json"
    /// JSON Merge Patch bodies (RFC 7396), accepted by `PATCH`.
    public static let mergePatch = "application/merge-patch+json"
    /// RFC 9457 problem details, the body of every error, whatever the format asked for.
    public static let problem = "application/problem+json"
    /// The Spearal binary encoding of the same data as the JSON (docs/spearal.md, "The wire format").
    public static let spearal = "application/spearal"
}

/// Names of the headers of a signed request (docs/api.md, "Signed requests").
public enum SignatureHeaderName {
    /// The registered app's id.
    public static let appID = "X-App-Id"
    /// Unix time in milliseconds when the request was signed.
    public static let timestamp = "X-Timestamp"
    /// Lowercase hex HMAC-SHA256 of the canonical request.
    public static let signature = "X-Signature"
}
