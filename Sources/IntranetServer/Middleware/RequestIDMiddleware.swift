import Hummingbird
import IntranetAPI
import Logging

/// Puts the request's id in `X-Request-Id` on the response; the same id is on every log line
/// of the request, so a user who quotes it leads straight to the server's record.
///
/// The id is Hummingbird's own (`hb.request.id` in the logs). An id sent by a proxy in the
/// request's `X-Request-Id` is used instead when it is short and plain. Each request is logged
/// at debug level.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let id: String
        if let proxied = Self.acceptedID(request.headers[.requestID]) {
            id = proxied
            context.logger[metadataKey: "hb.request.id"] = .string(proxied)
        } else {
            id = context.id
        }
        let start = context.logger.logLevel <= .debug ? ContinuousClock.now : nil
        var response = try await next(request, context)
        response.headers[.requestID] = id
        if let start {
            context.logger.debug(
                "\(request.method.rawValue) \(request.uri.path) \(response.status.code)",
                metadata: ["duration": "\(ContinuousClock.now - start)"]
            )
        }
        return response
    }

    private static func acceptedID(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count),
              value.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        return value
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
