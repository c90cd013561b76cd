import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// An error the API reports to its client as an RFC 9457 problem body.
///
/// Handlers throw these; ``ProblemMiddleware`` renders them (and turns any other error into a
/// 500 that reveals nothing).
struct APIError: Error, HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var detail: String
    var fieldErrors: [Problem.FieldError]?
    var supportedVersions: [String]?
    /// Extra headers the answer needs, e.g. `Allow` on a 405 or `Vary` on a versioned route.
    var headers: HTTPFields = [:]
    /// What really failed, for the server log only; never sent to the client.
    var internalDescription: String?

    /// The problem body of this error.
    var problem: Problem {
        Problem(
            title: status.reasonPhrase,
            status: status.code,
            detail: detail,
            errors: fieldErrors,
            supportedVersions: supportedVersions
        )
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = MediaType.problem
        let body = try IntranetJSON.encoder().encode(problem)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension APIError {
    static func notFound(_ detail: String = "No announcement has this id.") -> APIError {
        APIError(status: .notFound, detail: detail)
    }

    static func badRequest(_ detail: String) -> APIError {
        APIError(status: .badRequest, detail: detail)
    }

    static func validation(_ errors: [Problem.FieldError]) -> APIError {
        let fields = errors.map(\.field).joined(separator: ", ")
        return APIError(
            status: .unprocessableContent,
            detail: "The request body has invalid fields: \(fields).",
            fieldErrors: errors
        )
    }

    static func preconditionFailed(_ noun: String = "announcement") -> APIError {
        APIError(
            status: .preconditionFailed,
            detail: "The \(noun) changed since you read it (If-Match does not match its ETag). Read it again and retry."
        )
    }

    static func conflict(_ detail: String) -> APIError {
        APIError(status: .conflict, detail: detail)
    }

    static func unsupportedVersion(_ asked: String) -> APIError {
        APIError(
            status: .notAcceptable,
            detail: "API version \"\(asked.prefix(40))\" is not supported. Send Accept-Version with one of: \(APIVersion.supported.joined(separator: ", ")).",
            supportedVersions: APIVersion.supported
        )
    }

    static func notAcceptable(_ accept: String) -> APIError {
        APIError(
            status: .notAcceptable,
            detail: "This route answers \(WireFormat.offered); the Accept header allows neither."
        )
    }

    static func methodNotAllowed(allowed: [HTTPRequest.Method]) -> APIError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(
            status: .methodNotAllowed,
            detail: "This route serves \(list).",
            headers: [.allow: list]
        )
    }

    static func unsupportedMediaType() -> APIError {
        APIError(
            status: .unsupportedMediaType,
            detail: "Send the body as \(WireFormat.offered) (or application/merge-patch+json for PATCH)."
        )
    }

    static func contentTooLarge(limit: Int) -> APIError {
        APIError(status: .contentTooLarge, detail: "The request body is larger than the limit of \(limit) bytes.")
    }

    static func internalFailure(describing error: any Error) -> APIError {
        APIError(
            status: .internalServerError,
            detail: "Something failed on the server. Quote the X-Request-Id header when you report it.",
            internalDescription: String(reflecting: error)
        )
    }
}
