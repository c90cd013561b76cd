import Foundation

/// Decodes Spearal messages (`application/spearal`), like `JSONDecoder` does JSON.
///
/// The bytes are first read completely into a ``SpearalValue`` (so every property — even one
/// the Swift type lacks — is decoded and its references counted), then mapped onto the
/// `Decodable` type. Properties the type does not declare are dropped; properties the message
/// does not carry decode as `nil` for optionals and ``SpearalField/undefined`` for
/// ``SpearalField``s, and throw `keyNotFound` otherwise.
///
/// **Object graphs.** A bean referenced several times decodes into one shared instance when
/// the Swift type is a class. A cycle cannot be rebuilt through `Decodable` and throws
/// ``SpearalError/cyclicReference(className:)``: decode such messages with ``decodeValue(from:)``,
/// whose ``SpearalBean`` graph keeps cycles and identity.
///
/// ```swift
/// let person = try SpearalDecoder().decode(Person.self, from: data)
/// ```
public struct SpearalDecoder: Sendable {
    /// Limits for untrusted input.
    public var options: SpearalDecodingOptions
    /// Maps wire class and property names to Swift names.
    public var aliasStrategy: SpearalAliasStrategy

    /// Creates a decoder.
    /// - Parameters:
    ///   - options: the decoding limits.
    ///   - aliasStrategy: the class and property name mapping; empty uses the wire names.
    public init(options: SpearalDecodingOptions = SpearalDecodingOptions(),
                aliasStrategy: SpearalAliasStrategy = SpearalAliasStrategy()) {
        self.options = options
        self.aliasStrategy = aliasStrategy
    }

    /// Decodes a value of `type` from one Spearal message.
    /// - Parameters:
    ///   - type: the type to build.
    ///   - data: the message bytes.
    /// - Returns: the decoded value.
    /// - Throws: a ``SpearalError`` for malformed bytes or a cycle, `DecodingError` when the
    ///   message does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let (value, hasObjectReferences) = try SpearalReader.readMessage(in: data, options: options)
        // The intermediate graph may be cyclic (untrusted input): free it once mapped.
        defer {
            if hasObjectReferences { value.dismantle() }
        }
        return try decode(type, fromValue: value)
    }

    /// Builds a value of `type` from an already decoded value.
    /// - Parameters:
    ///   - type: the type to build.
    ///   - value: the value model.
    /// - Returns: the decoded value.
    /// - Throws: `DecodingError` when the value does not fit `type`, ``SpearalError/cyclicReference(className:)``.
    public func decode<T: Decodable>(_ type: T.Type, fromValue value: SpearalValue) throws -> T {
        let context = SpearalDecodingContext(aliases: aliasStrategy)
        let root = SpearalValueDecoder(context: context, value: value, parent: nil, at: nil, type: T.self)
        return try root.decodeChild(T.self, from: value, at: nil)
    }

    /// Decodes one Spearal message into the value model, keeping references, cycles and
    /// partial beans exactly as sent.
    ///
    /// A message with cycles yields a graph with reference cycles: call
    /// ``SpearalValue/dismantle()`` when done with it so its memory is released.
    /// - Parameter data: the message bytes.
    /// - Returns: the top-level value.
    /// - Throws: the ``SpearalError`` describing the first problem in the bytes.
    public func decodeValue(from data: Data) throws(SpearalError) -> SpearalValue {
        try SpearalReader.readMessage(in: data, options: options).value
    }
}
