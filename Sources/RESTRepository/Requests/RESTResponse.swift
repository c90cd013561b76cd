import Foundation
import HTTPTypes

/// A successful (2xx) response: its head and body, with helpers to decode it.
public struct RESTResponse: Sendable, Equatable {
    /// The response head.
    public var head: HTTPResponse
    /// The response body, empty when the server sent none.
    public var body: Data
    /// Where the answer came from: the server, or a ``ResponseStore`` (and how old it is).
    public var origin: ResponseOrigin

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - head: the response head.
    ///   - body: the response body.
    ///   - origin: where it came from (the server, by default).
    public init(head: HTTPResponse, body: Data, origin: ResponseOrigin = .network) {
        self.head = head
        self.body = body
        self.origin = origin
    }

    /// The response header fields.
    public var headerFields: HTTPFields { head.headerFields }

    /// The `ETag` the server sent, verbatim (quotes and `W/` kept), or `nil`.
    public var etag: String? { head.headerFields[.eTag] }

    /// The response as ``ResponseDetails``, for errors.
    public var details: ResponseDetails {
        ResponseDetails(status: head.status, headerFields: head.headerFields, body: body)
    }

    /// Decodes the body as one value.
    ///
    /// - Parameters:
    ///   - type: the expected type.
    ///   - coder: the body format to decode with.
    /// - Throws: ``RepositoryError/undecodable(_:_:)`` naming the offending path.
    public func decode<Value: Decodable>(
        _ type: Value.Type = Value.self, using coder: any BodyCoder
    ) throws -> Value {
        do {
            return try coder.decode(type, from: body)
        } catch {
            throw RepositoryError.undecodable(details, DecodingFailure(error, isList: false))
        }
    }

    /// Decodes the body as a JSON array; one bad item fails the whole call.
    ///
    /// - Parameters:
    ///   - type: the item type.
    ///   - coder: the body format to decode with.
    /// - Throws: ``RepositoryError/undecodable(_:_:)`` whose ``DecodingFailure/index`` names
    ///   the first item that failed.
    public func decodeList<Item: Decodable>(
        _ type: Item.Type = Item.self, using coder: any BodyCoder
    ) throws -> [Item] {
        do {
            return try coder.decode([Item].self, from: body)
        } catch {
            throw RepositoryError.undecodable(details, DecodingFailure(error, isList: true))
        }
    }
}
