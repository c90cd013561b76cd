import Foundation
import HTTPTypes

/// Every way a repository call can fail, one case per situation a user interface treats
/// differently.
///
/// Repositories throw nothing else, but for one typed case: the guarded writes of a ``Readable``
/// repository throw ``VersionConflict`` on 412. Each HTTP case keeps the ``ResponseDetails`` (status,
/// header fields, body and decoded problem body). Responses are classified in exactly one
/// place, ``RepositoryError/init(response:body:)``.
public enum RepositoryError: Error, Sendable {
    /// No response arrived: no connection, DNS failure, time-out, TLS failure.
    case transport(any Error)
    /// The calling task was cancelled before a response arrived.
    case cancelled
    /// 400: the server found the request malformed.
    case badRequest(ResponseDetails)
    /// 401: no credentials, or credentials the server does not accept.
    case unauthorized(ResponseDetails)
    /// 403: the caller is known but may not do this.
    case forbidden(ResponseDetails)
    /// 404 or 410: the resource does not exist (any more).
    case notFound(ResponseDetails)
    /// 409: the request conflicts with the resource's state.
    case conflict(ResponseDetails)
    /// 412: an `If-Match` precondition failed because someone else changed the resource.
    ///
    /// The writes of a repository that can read its members throw a typed ``VersionConflict``
    /// with the current member instead.
    case preconditionFailed(ResponseDetails)
    /// 422: the body was well formed but invalid; `fieldErrors` names each offending field.
    case unprocessable(ResponseDetails, fieldErrors: [ProblemDetails.FieldError])
    /// 429: too many requests; `retryAfter` is how long the server asked to wait, when it said.
    case rateLimited(ResponseDetails, retryAfter: Duration?)
    /// 5xx: the server failed.
    case server(ResponseDetails)
    /// Any other status outside 2xx (405, 406, 413, 415, an unfollowed 3xx…).
    case unexpectedStatus(ResponseDetails)
    /// A successful response whose body could not be decoded into the expected type.
    case undecodable(ResponseDetails, DecodingFailure)
    /// The request body could not be encoded; nothing was sent.
    case encodingFailed(String)
    /// A conditional write was asked for with a ``Versioned`` value that has no entity tag (the
    /// server sent none), so it could not be guarded by `If-Match`; nothing was sent. Read the
    /// member again, or use the explicit unconditional call (e.g. `patchUnconditionally`).
    case missingETag
    /// A store or a file on this device failed: the session store, a file to upload (nothing
    /// was sent) or the file a download goes to. The request itself, if one was sent,
    /// succeeded or was not needed. The underlying error says why.
    case localStore(any Error)
    /// ``StorePolicy/storeOnly`` asked for an answer the ``ResponseStore`` does not hold (it
    /// was never read on this device, or was forgotten); nothing was sent.
    case notStored(path: String)

    /// Classifies a response: `nil` for 2xx, otherwise the one case matching its status.
    ///
    /// This is the only place a status becomes an error.
    ///
    /// - Parameters:
    ///   - response: the response head.
    ///   - body: the response body.
    public init?(response: HTTPResponse, body: Data) {
        guard response.status.kind != .successful else { return nil }
        let details = ResponseDetails(
            status: response.status, headerFields: response.headerFields, body: body)
        switch response.status.code {
        case 400: self = .badRequest(details)
        case 401: self = .unauthorized(details)
        case 403: self = .forbidden(details)
        case 404, 410: self = .notFound(details)
        case 409: self = .conflict(details)
        case 412: self = .preconditionFailed(details)
        case 422: self = .unprocessable(details, fieldErrors: details.fieldErrors)
        case 429:
            let retryAfter = response.headerFields[.retryAfter].flatMap { RetryAfter.parse($0) }
            self = .rateLimited(details, retryAfter: retryAfter)
        case 500...599: self = .server(details)
        default: self = .unexpectedStatus(details)
        }
    }

    /// The response the error came from, when there was one.
    public var response: ResponseDetails? {
        switch self {
        case .badRequest(let details), .unauthorized(let details), .forbidden(let details),
            .notFound(let details), .conflict(let details), .server(let details),
            .unexpectedStatus(let details), .preconditionFailed(let details):
            details
        case .unprocessable(let details, _),
            .rateLimited(let details, _), .undecodable(let details, _):
            details
        case .transport, .cancelled, .encodingFailed, .missingETag, .localStore, .notStored:
            nil
        }
    }

    /// The HTTP status code of the response, when there was one.
    public var statusCode: Int? {
        response?.status.code
    }
}
