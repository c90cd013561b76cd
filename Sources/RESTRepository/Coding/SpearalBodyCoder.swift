import Foundation
import HTTPTypes
import Spearal

/// Spearal bodies (`application/spearal`): a compact binary encoding of the same objects,
/// with the property filter in a header (`Spearal-PropertyFilter: class#a,b`, one line per
/// class).
///
/// A patch is the partial object itself: properties a ``PatchField`` leaves absent are not in
/// the bean at all, so the server keeps them. Name your models' wire classes with
/// `SpearalClassNamed` (or the encoder's `SpearalAliasStrategy`) so the server and other clients know them.
public struct SpearalBodyCoder: BodyCoder {
    /// The encoder for request bodies (its alias strategy names classes on the wire).
    public var encoder: SpearalEncoder
    /// The decoder for response bodies (its options bound what a response may make it do).
    public var decoder: SpearalDecoder

    /// Creates a Spearal coder.
    ///
    /// - Parameters:
    ///   - encoder: the request-body encoder.
    ///   - decoder: the response-body decoder.
    public init(encoder: SpearalEncoder = SpearalEncoder(), decoder: SpearalDecoder = SpearalDecoder()) {
        self.encoder = encoder
        self.decoder = decoder
    }

    /// The Spearal media type, `application/spearal`.
    public static let mediaType = "application/spearal"
    /// The header carrying the property filter.
    public static let propertyFilterHeader = HTTPField.Name(SpearalPropertyFilter.headerName)!

    /// `application/spearal`.
    public var mediaType: String { Self.mediaType }
    /// `application/spearal`: without it a server answers JSON.
    public var accept: String? { Self.mediaType }
    /// `application/spearal`: a partial bean is the patch.
    public var patchMediaType: String { Self.mediaType }

    /// Encodes one Spearal message.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        try encoder.encode(value)
    }

    /// Decodes one Spearal message.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try decoder.decode(type, from: data)
    }

    /// Adds a `Spearal-PropertyFilter` line for `className`.
    public func selecting(_ properties: [String], of className: String, in request: RESTRequest) -> RESTRequest {
        var copy = request
        let value = SpearalPropertyFilter.formatHeaderValue(className: className, properties: properties)
        copy.headerFields.append(HTTPField(name: Self.propertyFilterHeader, value: value))
        return copy
    }
}
