import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import Spearal

/// Reads a write's body under the server's rules: JSON or Spearal (415 otherwise), at most the
/// configured size (413 otherwise), well-formed (400 otherwise).
///
/// Both formats become one ``JSONValue``, so validation, the meaning of absent and `null`
/// properties, and merge patching go through one code path whatever the client sent: a Spearal
/// bean's properties are the object's members (a partial bean is a partial object).
enum RequestBody {
    static func value(of request: Request, limit: Int, allowsMergePatch: Bool) async throws -> JSONValue {
        let format = try format(of: request.headers[.contentType], allowsMergePatch: allowsMergePatch)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.contentTooLarge(limit: limit)
        }
        let buffer = try await request.body.collect(upTo: limit)
        switch format {
        case .json: return try JSONValue.parse(Array(buffer.readableBytesView))
        case .spearal: return try SpearalBody.parse(Data(buffer.readableBytesView))
        }
    }

    private static func format(of header: String?, allowsMergePatch: Bool) throws -> WireFormat {
        guard let header, let range = MediaRange.parseList(header).first, range.type == "application" else {
            throw APIError.unsupportedMediaType()
        }
        if range.subtype == "spearal" { return .spearal }
        let isJSON = range.subtype == "json" || (allowsMergePatch && range.subtype == "merge-patch+json")
        let charset = range.parameters["charset"]?.lowercased()
        guard isJSON, charset == nil || charset == "utf-8" else {
            throw APIError.unsupportedMediaType()
        }
        return .json
    }
}
