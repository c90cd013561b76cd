import Hummingbird
import IntranetAPI
import Logging
import NIOCore

/// Gives every request an id, puts it in `X-Request-Id` on the response and on every log line
/// of the request, and logs one line per request at debug level.
///
/// An id sent by a proxy in the request's `X-Request-Id` is kept when it is short and plain.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let id = Self.acceptedID(request.headers[.requestID]) ?? Self.makeID()
        context.requestID = id
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[.requestID] = id
        if context.logger.logLevel <= .debug {
            let elapsed = ContinuousClock.now - start
            context.logger.debug(
                "\(request.method.rawValue) \(request.uri.path) \(response.status.code)",
                metadata: ["duration": "\(elapsed)"]
            )
        }
        return response
    }

    static func makeID() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
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
