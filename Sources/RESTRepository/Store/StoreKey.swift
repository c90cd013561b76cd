import Foundation
import HTTPTypes

/// What a stored answer is filed under: everything that chooses the answer a server gives.
///
/// Two requests share an answer only when scope, partition, method, path with query and
/// variant are all equal, so one user's answers are never another's, and a Spearal answer is
/// never served for a JSON request.
public struct StoreKey: Sendable, Hashable {
    /// The server the client talks to (see ``ResponseCaching/scope``); writes invalidate
    /// within it.
    public var scope: String
    /// Whose answer this is: the signed-in user, or `anonymous`.
    public var partition: String
    /// The request method, e.g. `GET`.
    public var method: String
    /// The path without query, e.g. `/announcements/5` (what writes invalidate by).
    public var path: String
    /// The path with its percent-encoded query, as sent.
    public var target: String
    /// What chooses the representation: the client's own selection (API version, format) and
    /// the request's header fields (`Accept`, a property filter, …), one per line.
    public var variant: String

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - scope: the server.
    ///   - partition: the user.
    ///   - method: the request method.
    ///   - path: the path without query.
    ///   - target: the path with its query.
    ///   - variant: the representation-choosing header fields.
    public init(scope: String, partition: String, method: String, path: String, target: String, variant: String) {
        self.scope = scope
        self.partition = partition
        self.method = method
        self.path = path
        self.target = target
        self.variant = variant
    }

    /// The key of `request`: its method, target and every header field it carries except the
    /// ones that only authenticate or make it conditional.
    ///
    /// - Parameters:
    ///   - request: the request as the repository built it.
    ///   - scope: the server.
    ///   - partition: the user.
    ///   - selection: what the client selects for all its requests (API version, format).
    public init(_ request: RESTRequest, scope: String, partition: String, selection: String = "") {
        let ignored: Set<HTTPField.Name> = [.authorization, .ifNoneMatch, .ifMatch, .ifModifiedSince, .ifUnmodifiedSince, .cookie]
        let variant = request.headerFields
            .filter { !ignored.contains($0.name) }
            .map { "\($0.name.canonicalName): \($0.value)" }
            .sorted()
        let lines = selection.isEmpty ? variant : [selection] + variant
        self.init(
            scope: scope, partition: partition, method: request.method.rawValue, path: request.path,
            target: request.pathWithQuery, variant: lines.joined(separator: "\n"))
    }

    /// The key as one string, the store's primary key.
    var text: String {
        [scope, partition, method, target, variant].joined(separator: "\u{1F}")
    }
}

/// An answer as the store keeps it.
public struct StoredResponse: Sendable, Equatable {
    /// The HTTP status (200).
    public var status: Int
    /// The response header fields (paging links and totals, `ETag`, `Content-Type`, …).
    public var headerFields: HTTPFields
    /// The body.
    public var body: Data
    /// The `ETag`, sent back as `If-None-Match` to revalidate.
    public var etag: String?
    /// When the server last gave or confirmed this answer.
    public var confirmedAt: Date

    /// Creates a stored answer.
    ///
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - headerFields: the response header fields.
    ///   - body: the body.
    ///   - etag: the entity tag, if the server sent one.
    ///   - confirmedAt: when the server gave or last confirmed it.
    public init(status: Int, headerFields: HTTPFields, body: Data, etag: String?, confirmedAt: Date) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.etag = etag
        self.confirmedAt = confirmedAt
    }

    /// The answer as a response head and body, with where it came from.
    ///
    /// - Parameter origin: where the caller got it.
    public func response(origin: ResponseOrigin) -> RESTResponse {
        RESTResponse(
            head: HTTPResponse(status: .init(code: status), headerFields: headerFields), body: body, origin: origin)
    }

    /// Header fields as stored: one `name: value` line each.
    static func data(from fields: HTTPFields) -> Data {
        Data(fields.map { "\($0.name.canonicalName): \($0.value)\n" }.joined().utf8)
    }

    static func fields(from data: Data) -> HTTPFields {
        var fields = HTTPFields()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            fields.append(HTTPField(name: name, value: String(line[line.index(after: colon)...].dropFirst())))
        }
        return fields
    }
}
