import Foundation
import HTTPTypes

/// Adds header fields to every request that does not already carry them (a per-call value
/// wins over the default).
public struct HeaderFieldsMiddleware: TransportMiddleware {
    /// The fields to add.
    public var headerFields: HTTPFields

    /// Creates the middleware.
    ///
    /// - Parameter headerFields: the fields every request should carry.
    public init(_ headerFields: HTTPFields) {
        self.headerFields = headerFields
    }

    /// Sends `Accept-Version: {version}` with every request.
    ///
    /// - Parameter version: the API version to ask for, e.g. `2.0`.
    public static func acceptVersion(_ version: String) -> HeaderFieldsMiddleware {
        HeaderFieldsMiddleware([.acceptVersion: version])
    }

    /// Adds the missing fields and passes the request on.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        next: @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        var request = request
        for field in headerFields where request.headerFields[field.name] == nil {
            request.headerFields.append(field)
        }
        return try await next(request, body)
    }
}

extension HTTPField.Name {
    /// `Accept-Version`, the API version a client asks for.
    public static var acceptVersion: Self { Self("Accept-Version")! }
    /// `X-Signature`, a request signature (redacted from logs).
    public static var xSignature: Self { Self("X-Signature")! }
}
