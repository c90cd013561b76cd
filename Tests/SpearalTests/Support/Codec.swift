import Foundation
import Spearal

/// Encodes and decodes the value model with default settings.
enum Codec {
    static func encode(_ value: SpearalValue) throws -> String {
        Hex.string(try SpearalEncoder().encodeValue(value))
    }

    static func decode(_ hex: String) throws -> SpearalValue {
        try SpearalDecoder().decodeValue(from: Data(Hex.bytes(hex)))
    }
}
