import HTTPTypes
import Hummingbird
import IntranetAPI

/// Chooses the API version (docs/api.md, "Versions") and the format ("Formats: JSON and Spearal") of a request, and stamps the version
/// on the response.
///
/// `Accept-Version` wins over a `v` parameter in `Accept`; with neither, the latest version is
/// used. An unknown version is answered with 406, and so is an `Accept` that allows neither
/// JSON nor Spearal. Every answer, errors included, carries `API-Version` (when a version was
/// chosen) and `Vary: Accept, Accept-Version, Spearal-PropertyFilter`.
struct VersionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The request body limit, named in the 413 answer.
    let maxBodySize: Int

    /// The request headers every versioned answer depends on: the format and version asked for,
    /// and the properties asked for (``PropertySelection``).
    static let vary = "Accept, Accept-Version, Spearal-PropertyFilter"

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let version: APIVersion
        var context = context
        do {
            (version, context.wireFormat) = try Self.negotiate(request.headers)
        } catch var error as APIError {
            error.headers[.vary] = Self.vary
            throw error
        }
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

    /// The version and the format a request asks for.
    ///
    /// - Throws: ``APIError`` 406 for an unknown version or an `Accept` header that allows
    ///   neither JSON nor Spearal.
    static func negotiate(_ headers: HTTPFields) throws -> (version: APIVersion, format: WireFormat) {
        var format = WireFormat.json
        var formatRanges: [MediaRange] = []
        if headers[.accept] != nil {
            let accept = headers[values: .accept].joined(separator: ",")
            let ranges = MediaRange.parseList(accept)
            if !accept.isEmpty {
                guard let preferred = WireFormat.preferred(by: ranges) else { throw APIError.notAcceptable(accept) }
                format = preferred
                formatRanges = ranges.filter { $0.admits(type: "application", subtype: format.rawValue) && $0.quality > 0 }
            }
        }
        if let asked = headers[.acceptVersion] {
            guard let version = APIVersion(rawValue: asked) else { throw APIError.unsupportedVersion(asked) }
            return (version, format)
        }
        if let asked = formatRanges.lazy.compactMap({ $0.parameters["v"] }).first {
            guard let version = APIVersion(rawValue: asked) else { throw APIError.unsupportedVersion(asked) }
            return (version, format)
        }
        return (.latest, format)
    }
}
