import Foundation
import Hummingbird
import IntranetAPI
import Logging

/// The server's one error boundary, and the stamp of every answer's `X-Request-Id`.
///
/// Every error thrown below it becomes a problem+json answer: errors the API defines keep their
/// status and detail; anything else is a 500 whose body says only that something failed, while
/// the error itself goes to the log. Every answer carries the request's id, which is also on
/// each of the request's log lines (`hb.request.id`), so a user who quotes it leads straight to
/// the server's record. An id sent by a proxy in `X-Request-Id` is used when it is short and
/// plain. Each request is recorded (metrics, access log, debug log) by the ``ExchangeRecorder``
/// the early answers share.
///
/// One middleware rather than two keeps the hot read path one async frame shorter.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The request body limit, named in the 413 answer.
    let maxBodySize: Int
    /// Records each answered request.
    var recorder = ExchangeRecorder()

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let id: String
        if let proxied = RequestIdentifiers.proxied(request.headers[.requestID]) {
            id = proxied
            context.logger[metadataKey: "hb.request.id"] = .string(proxied)
        } else {
            id = context.id
        }
        let start = recorder.isRecording || context.logger.logLevel <= .debug ? ContinuousClock.now : nil
        let arrived = recorder.accessLog != nil ? Date() : nil
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let apiError = APIError(error, maxBodySize: maxBodySize)
            if apiError.status.kind == .serverError {
                context.logger.error(
                    "request failed: \(request.method.rawValue) \(request.uri.path)",
                    metadata: ["error": "\(apiError.internalDescription ?? "-")"]
                )
            }
            response = try apiError.response(from: request, context: context)
        }
        response.headers[.requestID] = id
        if let start {
            recorder.record(
                AccessLog.Entry(
                    time: arrived ?? Date(), requestID: id, method: request.method.rawValue, target: request.uri.description,
                    status: Int(response.status.code), bytes: response.body.contentLength, duration: ContinuousClock.now - start,
                    userID: context.accessNote.userID, early: false),
                logger: context.logger)
        }
        return response
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

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
