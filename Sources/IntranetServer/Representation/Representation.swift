import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import NIOCore
import Spearal

/// What an answer is made of beyond its data: the negotiated format and version and the
/// properties asked for. Two requests with equal representations get the same bytes for the
/// same data, so caches key on ``cacheKey`` and entity tags carry ``tagSuffix``.
struct Representation: Sendable {
    let format: WireFormat
    let version: APIVersion
    let selection: PropertySelection

    /// The representation a request asks for, `fields` naming properties of `primary`.
    ///
    /// - Throws: ``APIError`` 400 for a malformed or unknown property filter.
    init(_ request: Request, context: AppRequestContext, primary: WireClass) throws {
        format = context.wireFormat
        version = context.apiVersion
        let headerValues = request.headers[values: .spearalPropertyFilter]
        let query = request.uri.query
        if headerValues.isEmpty, query?.isEmpty ?? true {
            selection = .everything
        } else {
            selection = try PropertySelection(headerValues: headerValues, rawQuery: query, primary: primary, version: version)
        }
    }

    /// The representation of an answer that has no property filter: the negotiated format and
    /// version only.
    init(format: WireFormat, version: APIVersion) {
        self.format = format
        self.version = version
        selection = .everything
    }

    /// Text telling representations of the same data apart, for cache keys.
    var cacheKey: String {
        selection.isEverything ? format.rawValue : format.rawValue + "|" + selection.canonical
    }

    /// What an entity tag adds for this representation: nothing for unfiltered JSON, `-s` for
    /// Spearal, `-f` and the selection's ``PropertySelection/tag`` for a selection (no dots, so
    /// an `If-Match` still reads id and revision).
    var tagSuffix: String {
        (format == .spearal ? "-s" : "") + (selection.isEverything ? "" : "-f" + selection.tag)
    }

    /// The answer's `Content-Type`.
    var contentType: String { format.mediaType }

    /// `value` in this format, without the properties the selection drops.
    func encode<Value: Encodable>(_ value: Value) throws -> ByteBuffer {
        switch format {
        case .json:
            let encoder = IntranetJSON.encoder()
            if selection.isEverything {
                return ByteBuffer(bytes: try encoder.encode(value))
            }
            return ByteBuffer(bytes: try encoder.encode(PropertyFiltered(value: value, selection: selection)))
        case .spearal:
            let encoder = SpearalEncoder(propertyFilter: selection.isEverything ? SpearalPropertyFilter() : selection.spearalFilter)
            return ByteBuffer(bytes: try encoder.encode(value))
        }
    }

    /// An uncached answer holding `value`.
    func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: try encode(value))
        )
    }
}

extension HTTPField.Name {
    static let spearalPropertyFilter = Self(HeaderName.spearalPropertyFilter)!
}
