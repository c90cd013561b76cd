import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// Reads a write's JSON body under the server's rules: JSON media type (415 otherwise), at
/// most the configured size (413 otherwise), well-formed (400 otherwise).
enum RequestBody {
    static func json(of request: Request, limit: Int, allowsMergePatch: Bool) async throws -> JSONValue {
        try requireJSONMediaType(request.headers[.contentType], allowsMergePatch: allowsMergePatch)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.contentTooLarge(limit: limit)
        }
        let buffer = try await request.body.collect(upTo: limit)
        return try JSONValue.parse(Array(buffer.readableBytesView))
    }

    private static func requireJSONMediaType(_ header: String?, allowsMergePatch: Bool) throws {
        guard let header, let range = MediaRange.parseList(header).first, range.type == "application" else {
            throw APIError.unsupportedMediaType()
        }
        let isJSON = range.subtype == "json" || (allowsMergePatch && range.subtype == "merge-patch+json")
        let charset = range.parameters["charset"]?.lowercased()
        guard isJSON, charset == nil || charset == "utf-8" else {
            throw APIError.unsupportedMediaType()
        }
    }
}
