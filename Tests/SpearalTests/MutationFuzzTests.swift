import Foundation
import Spearal
import Testing

@Suite("Random mutations of the vectors never crash the decoder")
struct MutationFuzzTests {
    /// Applies one random edit: flip, overwrite with a boundary value, insert, delete, truncate or duplicate.
    static func mutate(_ bytes: inout [UInt8], using generator: inout SeededGenerator) {
        let interesting: [UInt8] = [0x00, 0x01, 0x03, 0x07, 0x08, 0x0F, 0x7F, 0x80, 0xC4, 0xC8, 0xFF]
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
        case 1 where !bytes.isEmpty: bytes[position] = interesting.randomElement(using: &generator) ?? 0
        case 2: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
        case 3 where !bytes.isEmpty: bytes.remove(at: position)
        case 4: bytes.removeLast(bytes.count - position)
        default:
            let end = min(bytes.count, position + Int.random(in: 1...8, using: &generator))
            bytes.insert(contentsOf: bytes[position..<end], at: position)
        }
    }

    @Test("100,000 seeded mutations decode or throw, and what decodes re-encodes stably")
    func mutatedVectorsNeverCrash() throws {
        let seeds = try ReferenceVectors.all().map(\.bytes)
        var generator = SeededGenerator(seed: 0x5EA2A1)
        let decoder = SpearalDecoder(options: SpearalDecodingOptions(maxDepth: 32))
        var decodedCount = 0
        var unstable: [String] = []

        for _ in 0..<100_000 {
            var bytes = seeds.randomElement(using: &generator) ?? []
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                Self.mutate(&bytes, using: &generator)
            }
            guard let value = try? decoder.decodeValue(from: Data(bytes)) else { continue }
            defer { value.dismantle() }
            decodedCount += 1
            let once = try SpearalEncoder().encodeValue(value)
            let again = try decoder.decodeValue(from: once)
            defer { again.dismantle() }
            let twice = try SpearalEncoder().encodeValue(again)
            if once != twice && unstable.count < 5 { unstable.append(Hex.string(Data(bytes))) }
        }

        #expect(decodedCount > 1000)
        #expect(unstable.isEmpty)
    }
}
