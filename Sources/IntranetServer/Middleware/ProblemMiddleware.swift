import Hummingbird
import IntranetAPI
import Logging

/// The server's one error boundary: every error thrown below it becomes a problem+json answer.
///
/// Errors the API defines keep their status and detail. Anything else is a 500 whose body says
/// only that something failed; the error itself goes to the log, with the request id the
/// response also carries.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The request body limit, named in the 413 answer.
    let maxBodySize: Int

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = APIError(error, maxBodySize: maxBodySize)
            if apiError.status.kind == .serverError {
                context.logger.error(
                    "request failed: \(request.method.rawValue) \(request.uri.path)",
                    metadata: ["error": "\(apiError.internalDescription ?? "-")"]
                )
            }
            return try apiError.response(from: request, context: context)
        }
    }
}

extension APIError {
    /// Translates any error into the problem the client sees.
    init(_ error: any Error, maxBodySize: Int) {
        switch error {
        case let apiError as APIError:
            self = apiError
        case let httpError as HTTPError:
            self = Self.translating(httpError, maxBodySize: maxBodySize)
        default:
            self = .internalFailure(describing: error)
        }
    }

    private static func translating(_ error: HTTPError, maxBodySize: Int) -> APIError {
        switch error.status {
        case .notFound: .notFound("There is nothing at this address.")
        case .contentTooLarge: .contentTooLarge(limit: maxBodySize)
        case let status where status.kind == .serverError:
            .internalFailure(describing: error)
        case let status:
            APIError(status: status, detail: error.body ?? status.reasonPhrase, headers: error.headers)
        }
    }
}
