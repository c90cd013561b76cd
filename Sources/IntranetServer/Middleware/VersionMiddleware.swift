import HTTPTypes
import Hummingbird
import IntranetAPI

/// Chooses the API version of a request (API.md §1) and stamps it on the response.
///
/// `Accept-Version` wins over a `v` parameter in `Accept`; with neither, the latest version is
/// used. An unknown version is answered with 406. Every answer, errors included, carries
/// `API-Version` (when a version was chosen) and `Vary: Accept, Accept-Version`.
struct VersionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The request body limit, named in the 413 answer.
    let maxBodySize: Int

    static let vary = "Accept, Accept-Version"

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let version: APIVersion
        do {
            version = try Self.negotiate(request.headers)
        } catch var error as APIError {
            error.headers[.vary] = Self.vary
            throw error
        }
        var context = context
        context.apiVersion = version
        do {
            var response = try await next(request, context)
            // Cached answers carry both headers already; setting them again would copy the headers.
            if response.headers[.apiVersion] == nil {
                response.headers[.apiVersion] = version.rawValue
                response.headers[.vary] = Self.vary
            }
            return response
        } catch {
            var apiError = APIError(error, maxBodySize: maxBodySize)
            apiError.headers[.apiVersion] = version.rawValue
            apiError.headers[.vary] = Self.vary
            throw apiError
        }
    }

    /// The version a request asks for.
    ///
    /// - Throws: ``APIError`` 406 for an unknown version or an `Accept` header that allows no JSON.
    static func negotiate(_ headers: HTTPFields) throws -> APIVersion {
        var jsonRanges: [MediaRange] = []
        if headers[.accept] != nil {
            let accept = headers[values: .accept].joined(separator: ",")
            jsonRanges = MediaRange.parseList(accept).filter { $0.admits(type: "application", subtype: "json") && $0.quality > 0 }
            if !accept.isEmpty, jsonRanges.isEmpty {
                throw APIError.notAcceptable(accept)
            }
        }
        if let asked = headers[.acceptVersion] {
            guard let version = APIVersion(rawValue: asked) else { throw APIError.unsupportedVersion(asked) }
            return version
        }
        if let asked = jsonRanges.lazy.compactMap({ $0.parameters["v"] }).first {
            guard let version = APIVersion(rawValue: asked) else { throw APIError.unsupportedVersion(asked) }
            return version
        }
        return .latest
    }
}
